package io.taskgate.core.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.LimiterAlgorithm;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A limit read from named text options: layered sources, and errors naming source, option, value.
 */
class LimitTextTest {
  static final LimitSource ANNOTATION = LimitSource.annotation("@RateLimit");
  static final LimitSource CONFIG = LimitSource.config("taskgate.limiter.quotes.");
  static final LimitSource JSON = LimitSource.jsonFields();

  final Map<String, String> annotation = new HashMap<>();
  final Map<String, String> config = new HashMap<>();

  LimitText text() {
    return LimitText.of(ANNOTATION, annotation::get).over(CONFIG, config::get);
  }

  static LimitText json(String... fieldsAndValues) {
    Map<String, String> fields = new HashMap<>();
    for (int i = 0; i < fieldsAndValues.length; i += 2) {
      fields.put(fieldsAndValues[i], fieldsAndValues[i + 1]);
    }
    return LimitText.of(JSON, fields::get);
  }

  @Test
  void theLastLayerGivingAnOptionWinsAndTheOthersFallThrough() {
    annotation.put("permits", "5");
    annotation.put("period", "PT1S");
    config.put("period", " PT1M ");
    config.put("burst", "2");

    assertThat(text().limit()).isEqualTo(new Limit(5, Duration.ofMinutes(1), 2));
    assertThat(text().has("burst")).isTrue();
    assertThat(text().has("segments")).isFalse();
    assertThat(text().integer("segments", 10)).isEqualTo(10);
    assertThat(text().duration("max-wait", "PT1S", Duration.ZERO)).isEqualTo(Duration.ZERO);
  }

  @Test
  void theBurstIsThePermitsUnlessGiven() {
    assertThat(json("permits", "7", "period", "PT1S").limit())
        .isEqualTo(Limit.of(7, Duration.ofSeconds(1)));
  }

  @Test
  void aValueThatDoesNotReadIsWordedByTheLayerThatGaveIt() {
    annotation.put("period", "1m");
    assertThatThrownBy(() -> text().duration("period", "PT1M"))
        .isInstanceOf(InvalidLimitException.class)
        .hasMessage("option @RateLimit(period) '1m' is not an ISO-8601 duration such as PT1M");

    config.put("period", "soon");
    assertThatThrownBy(() -> text().duration("period", "PT1M"))
        .hasMessage(
            "taskgate.limiter.quotes.period = 'soon' is not valid: expected an ISO-8601 duration"
                + " such as PT1M");

    config.put("period", "PT1M");
    assertThat(text().duration("period", "PT1M"))
        .as("the annotation's bad value is never read under config's")
        .isEqualTo(Duration.ofMinutes(1));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "lots       | taskgate.limiter.quotes.burst = 'lots' is not valid: expected a whole number",
        "1.5        | taskgate.limiter.quotes.burst = '1.5' is not valid: expected a whole number",
        "3000000000 | taskgate.limiter.quotes.burst = '3000000000' is not valid: expected a whole"
            + " number up to 2147483647",
        "''         | taskgate.limiter.quotes.burst = '' is not valid: expected a whole number"
      })
  void aConfigValueIsNamedByItsKey(String value, String message) {
    config.put("burst", value);

    assertThatThrownBy(() -> text().integer("burst", 1))
        .isInstanceOf(InvalidLimitException.class)
        .hasMessage(message)
        .satisfies(
            e -> {
              assertThat(((InvalidLimitException) e).option()).isEqualTo("burst");
              assertThat(((InvalidLimitException) e).value()).isEqualTo(value);
            });
  }

  @Test
  void constantsReadInAnyCaseWithDashesAndAnUnknownOneListsThem() {
    config.put("algorithm", " token-bucket");
    assertThat(text().constant("algorithm", LimiterAlgorithm.class, LimiterAlgorithm.GCRA))
        .isEqualTo(LimiterAlgorithm.TOKEN_BUCKET);
    config.put("algorithm", "SLIDING_LOG");
    assertThat(text().constant("algorithm", LimiterAlgorithm.class, LimiterAlgorithm.GCRA))
        .isEqualTo(LimiterAlgorithm.SLIDING_LOG);

    config.put("algorithm", "leaky");
    assertThatThrownBy(
            () -> text().constant("algorithm", LimiterAlgorithm.class, LimiterAlgorithm.GCRA))
        .hasMessage(
            "taskgate.limiter.quotes.algorithm = 'leaky' is not valid: expected one of [gcra,"
                + " token-bucket, fixed-window, sliding-window, sliding-log, concurrency]");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "permits | 1.5   | period | PT1S | permits | permits must be a whole number, was 1.5",
        "permits | \"5\" | period | PT1S | permits | permits must be a whole number, was \"5\"",
        "permits | 5     | period | 1m   | period  | period must be an ISO-8601 duration such as"
            + " PT1M, was 1m",
        "period  | PT1S  | burst  | 2    | permits | permits is required, a whole number",
        "permits | 5     | burst  | 2    | period  | period is required, an ISO-8601 duration such"
            + " as PT1M",
        "permits | 0     | period | PT1S | permits | permits must be at least 1, was 0",
        "permits | 5     | period | PT0S | period  | period must be positive, was PT0S"
      })
  void aJsonFieldIsNamedAsTheRestApiNamesIt(
      String field1, String value1, String field2, String value2, String option, String message) {
    assertThatThrownBy(() -> json(field1, value1, field2, value2).limit())
        .isInstanceOf(InvalidLimitException.class)
        .hasMessage(message)
        .satisfies(e -> assertThat(((InvalidLimitException) e).option()).isEqualTo(option));
  }

  @Test
  void aTaskRateIsReadWithinTheSettingRanges() {
    assertThatThrownBy(() -> json("permits", "0", "period", "PT1S").taskRate())
        .hasMessage("permits must be between 1 and 1000000, was 0");
    assertThatThrownBy(() -> json("permits", "1", "period", "P400D").taskRate())
        .hasMessage("period must be positive and at most PT8784H (366 days), was PT9600H");
    assertThat(json("permits", "15", "period", "PT1M", "burst", "1").taskRate())
        .isEqualTo(new Limit(15, Duration.ofMinutes(1), 1));
  }
}
