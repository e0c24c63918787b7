package io.taskgate.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CronExpressionTest {

  /** Times in UTC unless the instant names a zone; the expected time is in the same zone. */
  @ParameterizedTest(name = "''{0}'' after {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        // every minute; strictly after, seconds and nanos dropped
        "* * * * *         | 2024-01-01T10:00Z                 | 2024-01-01T10:01Z",
        "* * * * *         | 2024-01-01T10:00:30Z              | 2024-01-01T10:01Z",
        "* * * * *         | 2024-01-01T10:00:00.000000001Z    | 2024-01-01T10:01Z",
        "* * * * *         | 2024-01-01T10:59:59.999Z          | 2024-01-01T11:00Z",
        // steps
        "*/15 * * * *      | 2024-01-01T10:00Z                 | 2024-01-01T10:15Z",
        "*/15 * * * *      | 2024-01-01T10:14:59Z              | 2024-01-01T10:15Z",
        "*/15 * * * *      | 2024-01-01T10:45Z                 | 2024-01-01T11:00Z",
        "10-50/20 * * * *  | 2024-01-01T10:30Z                 | 2024-01-01T10:50Z",
        "10-50/20 * * * *  | 2024-01-01T10:50Z                 | 2024-01-01T11:10Z",
        "45/10 * * * *     | 2024-01-01T10:46Z                 | 2024-01-01T10:55Z",
        "45/10 * * * *     | 2024-01-01T10:55Z                 | 2024-01-01T11:45Z",
        // ranges and lists
        "0 9-17 * * *      | 2024-01-01T08:59Z                 | 2024-01-01T09:00Z",
        "0 9-17 * * *      | 2024-01-01T17:00Z                 | 2024-01-02T09:00Z",
        "5,35 */6 * * *    | 2024-01-01T06:05Z                 | 2024-01-01T06:35Z",
        "5,35 */6 * * *    | 2024-01-01T06:35Z                 | 2024-01-01T12:05Z",
        "5,35 */6 * * *    | 2024-01-01T18:35Z                 | 2024-01-02T00:05Z",
        "0 0,12 1,15 * *   | 2024-01-01T12:00Z                 | 2024-01-15T00:00Z",
        // month and day names, any case; 0 and 7 are Sunday
        "0 0 * JAN,JUL *   | 2024-02-10T00:00Z                 | 2024-07-01T00:00Z",
        "0 0 1 feb-apr *   | 2024-04-01T00:00Z                 | 2025-02-01T00:00Z",
        "0 12 * * MON-FRI  | 2024-01-05T12:00Z                 | 2024-01-08T12:00Z",
        "0 12 * * sun      | 2024-01-01T00:00Z                 | 2024-01-07T12:00Z",
        "0 12 * * 0        | 2024-01-01T00:00Z                 | 2024-01-07T12:00Z",
        "0 12 * * 7        | 2024-01-01T00:00Z                 | 2024-01-07T12:00Z",
        "0 12 * * 5-7      | 2024-01-01T00:00Z                 | 2024-01-05T12:00Z",
        "0 12 * * 5-7      | 2024-01-06T12:00Z                 | 2024-01-07T12:00Z",
        "0 12 * * 5-7      | 2024-01-07T12:00Z                 | 2024-01-12T12:00Z",
        // day-of-month OR day-of-week when both are restricted (2024-10-12 is a Saturday)
        "0 0 13 * FRI      | 2024-10-12T00:00Z                 | 2024-10-13T00:00Z",
        "0 0 13 * FRI      | 2024-10-13T00:00Z                 | 2024-10-18T00:00Z",
        "0 0 13 * *        | 2024-10-13T00:00Z                 | 2024-11-13T00:00Z",
        "0 0 * * FRI       | 2024-10-12T00:00Z                 | 2024-10-18T00:00Z",
        "0 0 */2 * MON     | 2024-10-01T00:00Z                 | 2024-10-03T00:00Z",
        "0 0 */2 * MON     | 2024-10-05T00:00Z                 | 2024-10-07T00:00Z",
        "0 0 1-31 * MON    | 2024-10-05T00:00Z                 | 2024-10-06T00:00Z",
        // month ends
        "0 0 31 * *        | 2024-04-01T00:00Z                 | 2024-05-31T00:00Z",
        "0 0 30 * *        | 2024-01-30T00:00Z                 | 2024-03-30T00:00Z",
        "0 0 28-31 2 *     | 2023-02-28T00:00Z                 | 2024-02-28T00:00Z",
        // leap years, across the 2100 non-leap year too
        "0 0 29 2 *        | 2024-02-29T00:00Z                 | 2028-02-29T00:00Z",
        "0 0 29 2 *        | 2023-03-01T00:00Z                 | 2024-02-29T00:00Z",
        "0 0 29 2 *        | 2096-03-01T00:00Z                 | 2104-02-29T00:00Z",
        // year rollover
        "0 0 1 1 *         | 2024-12-31T23:59:30Z              | 2025-01-01T00:00Z",
        "59 23 31 12 *     | 2024-12-31T23:59Z                 | 2025-12-31T23:59Z",
        "* * * * *         | 2024-12-31T23:59Z                 | 2025-01-01T00:00Z",
        // Europe/Paris spring forward, 2024-03-31 02:00 CET -> 03:00 CEST: a time in the gap
        // fires once, when the gap ends
        "30 2 * * *        | 2024-03-31T00:00+01:00[Europe/Paris] | 2024-03-31T03:00+02:00[Europe/Paris]",
        "30 2 * * *        | 2024-03-31T03:00+02:00[Europe/Paris] | 2024-04-01T02:30+02:00[Europe/Paris]",
        "*/15 * * * *      | 2024-03-31T01:50+01:00[Europe/Paris] | 2024-03-31T03:00+02:00[Europe/Paris]",
        "*/15 * * * *      | 2024-03-31T03:00+02:00[Europe/Paris] | 2024-03-31T03:15+02:00[Europe/Paris]",
        "0 * * * *         | 2024-03-31T01:00+01:00[Europe/Paris] | 2024-03-31T03:00+02:00[Europe/Paris]",
        "0 * * * *         | 2024-03-31T03:00+02:00[Europe/Paris] | 2024-03-31T04:00+02:00[Europe/Paris]",
        "0 3 * * *         | 2024-03-31T01:00+01:00[Europe/Paris] | 2024-03-31T03:00+02:00[Europe/Paris]",
        "0 9 * * *         | 2024-03-30T09:00+01:00[Europe/Paris] | 2024-03-31T09:00+02:00[Europe/Paris]",
        // Europe/Paris fall back, 2024-10-27 03:00 CEST -> 02:00 CET: a repeated local time fires
        // once, at its first occurrence
        "30 2 * * *        | 2024-10-27T00:00+02:00[Europe/Paris] | 2024-10-27T02:30+02:00[Europe/Paris]",
        "30 2 * * *        | 2024-10-27T02:30+02:00[Europe/Paris] | 2024-10-28T02:30+01:00[Europe/Paris]",
        "0 * * * *         | 2024-10-27T02:00+02:00[Europe/Paris] | 2024-10-27T03:00+01:00[Europe/Paris]",
        "15 * * * *        | 2024-10-27T01:20+02:00[Europe/Paris] | 2024-10-27T02:15+02:00[Europe/Paris]",
        "*/30 * * * *      | 2024-10-27T02:10+01:00[Europe/Paris] | 2024-10-27T03:00+01:00[Europe/Paris]",
        "*/30 * * * *      | 2024-10-27T02:30+02:00[Europe/Paris] | 2024-10-27T03:00+01:00[Europe/Paris]",
        "0 9 * * *         | 2024-10-26T09:00+02:00[Europe/Paris] | 2024-10-27T09:00+01:00[Europe/Paris]",
      })
  void nextAfterFindsTheNextNamedTime(String expression, String after, String expected) {
    Optional<ZonedDateTime> next =
        CronExpression.parse(expression).nextAfter(ZonedDateTime.parse(after));
    assertThat(next).contains(ZonedDateTime.parse(expected));
  }

  @ParameterizedTest(name = "''{0}'' never fires")
  @CsvSource(
      delimiter = '|',
      value = {"0 0 30 2 *", "0 0 31 4,6,9,11 *", "0 0 31 2 *"})
  void anImpossibleDateGivesNoTime(String expression) {
    assertThat(CronExpression.parse(expression).nextAfter(ZonedDateTime.parse("2024-01-01T00:00Z")))
        .isEmpty();
  }

  @ParameterizedTest(name = "''{0}'' matches {1}: {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "*/15 9-17 * * MON-FRI | 2024-01-08T09:45    | true",
        "*/15 9-17 * * MON-FRI | 2024-01-08T09:46    | false",
        "*/15 9-17 * * MON-FRI | 2024-01-08T18:00    | false",
        "*/15 9-17 * * MON-FRI | 2024-01-07T09:45    | false",
        "0 0 13 * FRI          | 2024-09-06T00:00    | true",
        "0 0 13 * FRI          | 2024-10-13T00:00    | true",
        "0 0 13 * FRI          | 2024-10-14T00:00    | false",
        "0 0 29 2 *            | 2024-02-29T00:00:59 | true",
      })
  void matchesReadsTheLocalMinute(String expression, String local, boolean expected) {
    assertThat(CronExpression.parse(expression).matches(LocalDateTime.parse(local)))
        .isEqualTo(expected);
  }

  @ParameterizedTest(name = "''{0}''")
  @CsvSource(
      delimiter = '|',
      value = {
        "61 * * * *       | minute field '61' is out of range 0-59",
        "* 24 * * *       | hour field '24' is out of range 0-23",
        "* * 0 * *        | day-of-month field '0' is out of range 1-31",
        "* * 32 * *       | day-of-month field '32' is out of range 1-31",
        "* * * 13 *       | month field '13' is out of range 1-12",
        "* * * 0 *        | month field '0' is out of range 1-12",
        "* * * * 8        | day-of-week field '8' is out of range 0-7",
        "0-60 * * * *     | minute field '60' is out of range 0-59",
        "* * * FOO *      | month field 'FOO' is not a number or one of"
            + " JAN,FEB,MAR,APR,MAY,JUN,JUL,AUG,SEP,OCT,NOV,DEC",
        "* * * * MONDAY   | day-of-week field 'MONDAY' is not a number or one of"
            + " SUN,MON,TUE,WED,THU,FRI,SAT",
        "a * * * *        | minute field 'a' is not a number",
        "-5 * * * *       | minute field '-5' is not a number",
        "1-2-3 * * * *    | minute field '2-3' is not a number",
        "*/0 * * * *      | minute field '0' is not a valid step: it must be at least 1",
        "*/ * * * *       | minute field '' is not a number",
        "*/5/2 * * * *    | minute field '5/2' is not a number",
        "5-1 * * * *      | minute field '5-1' is a backward range: 5 is after 1",
        "* * * * FRI-MON  | day-of-week field 'FRI-MON' is a backward range: 5 is after 1",
        "1,,2 * * * *     | minute field '' is empty",
        "99999999999 * * * * | minute field '99999999999' is not a number",
      })
  void aBadFieldIsNamedWithItsToken(String expression, String problem) {
    assertThatThrownBy(() -> CronExpression.parse(expression))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cron '" + expression + "': " + problem);
  }

  @ParameterizedTest(name = "''{0}'' has {1} fields")
  @CsvSource(
      delimiter = '|',
      value = {"* * * * | 4", "* * * * * * | 6", "'' | 0", "'   ' | 0", "0 9 * | 3"})
  void theWrongNumberOfFieldsIsNamed(String expression, int count) {
    assertThatThrownBy(() -> CronExpression.parse(expression))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "cron '"
                + expression
                + "' must have 5 fields (minute hour day-of-month month day-of-week), has "
                + count);
  }

  @Test
  void nullIsRefused() {
    assertThatThrownBy(() -> CronExpression.parse(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cron expression must not be null");
  }

  @Test
  void extraBlanksAreAllowedAndTheTextIsKept() {
    CronExpression cron = CronExpression.parse("  0  9 * *   MON ");
    assertThat(cron).hasToString("  0  9 * *   MON ");
    assertThat(cron.nextAfter(ZonedDateTime.parse("2024-01-01T09:00Z")))
        .contains(ZonedDateTime.parse("2024-01-08T09:00Z"));
    assertThat(cron).isEqualTo(CronExpression.parse("  0  9 * *   MON "));
    assertThat(cron.hashCode()).isEqualTo(CronExpression.parse("  0  9 * *   MON ").hashCode());
  }
}
