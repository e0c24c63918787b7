package io.taskgate.web.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.taskgate.api.LimiterAlgorithm;
import io.taskgate.core.limit.Limit;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A PUT body's limit: JSON numbers and a JSON string, a bad field named in a 400 problem. */
class LimitFieldsTest {

  static JsonObject json(String text) {
    return Json.createReader(new StringReader(text)).readObject();
  }

  @Test
  void aBodyIsALimitWithItsAlgorithmsBurstUnlessGiven() {
    JsonObject noBurst = json("{\"permits\": 10, \"period\": \"PT1S\"}");
    assertThat(LimitFields.limit(noBurst, LimiterAlgorithm.GCRA))
        .isEqualTo(new Limit(10, Duration.ofSeconds(1), 1));
    assertThat(LimitFields.limit(noBurst, LimiterAlgorithm.TOKEN_BUCKET))
        .isEqualTo(Limit.of(10, Duration.ofSeconds(1)));
    assertThat(
            LimitFields.limit(
                json("{\"permits\": 10, \"period\": \"PT1S\", \"burst\": 4}"),
                LimiterAlgorithm.GCRA))
        .isEqualTo(new Limit(10, Duration.ofSeconds(1), 4));
    assertThat(LimitFields.taskRate(noBurst)).isEqualTo(Limit.of(10, Duration.ofSeconds(1)));
    assertThat(LimitFields.taskRate(json("{\"permits\": 15, \"period\": \"PT1M\", \"burst\": 1}")))
        .isEqualTo(new Limit(15, Duration.ofMinutes(1), 1));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"permits\": 1.5, \"period\": \"PT1S\"}   | permits | permits must be a whole number,"
            + " was 1.5",
        "{\"permits\": \"5\", \"period\": \"PT1S\"} | permits | permits must be a whole number,"
            + " was \"5\"",
        "{\"permits\": 3000000000, \"period\": \"PT1S\"} | permits | permits must be a whole"
            + " number up to 2147483647, was 3000000000",
        "{\"permits\": 5, \"period\": 60}            | period  | period must be an ISO-8601"
            + " duration such as PT1M, was 60",
        "{\"permits\": 5, \"period\": \"1m\"}        | period  | period must be an ISO-8601"
            + " duration such as PT1M, was 1m",
        "{\"period\": \"PT1S\"}                      | permits | permits is required, a whole"
            + " number",
        "{\"permits\": 5, \"period\": null}          | period  | period is required, an ISO-8601"
            + " duration such as PT1M",
        "{\"permits\": 0, \"period\": \"PT1S\"}      | permits | permits must be at least 1, was 0",
        "{\"permits\": 5, \"period\": \"PT1S\", \"burst\": 0} | burst | burst must be at least 1,"
            + " was 0"
      })
  void aBadFieldIsAProblemNamingIt(String body, String field, String detail) {
    ApiProblem problem =
        catchThrowableOfType(
            () -> LimitFields.limit(json(body), LimiterAlgorithm.GCRA), ApiProblem.class);

    assertThat(problem.status()).isEqualTo(400);
    assertThat(problem.toJson().getString("parameter")).isEqualTo(field);
    assertThat(problem.getMessage()).isEqualTo(detail);
  }

  @Test
  void aTaskRateOutOfTheRangesIsRefusedInTheirTerms() {
    IllegalArgumentException refused =
        catchThrowableOfType(
            () -> LimitFields.taskRate(json("{\"permits\": 0, \"period\": \"PT1S\"}")),
            IllegalArgumentException.class);

    assertThat(refused).hasMessage("permits must be between 1 and 1000000, was 0");
  }
}
