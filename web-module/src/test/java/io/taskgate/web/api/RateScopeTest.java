package io.taskgate.web.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a rate-limit change of the REST API is for, and its ranges: a key, or the whole task type
 * said explicitly; anything else a 400 naming the field.
 */
class RateScopeTest {

  @Test
  void aKeyOrTheExplicitTypeWideForm() {
    assertThat(RateScope.of(json("{\"key\":\"acme\"}"))).isEqualTo("acme");
    assertThat(RateScope.of(json("{\"key\":\"acme\",\"scope\":\"key\"}"))).isEqualTo("acme");
    assertThat(RateScope.of(json("{\"scope\":\"type\"}"))).isNull();
    assertThat(RateScope.of(json("{\"scope\":\"type\",\"key\":null}"))).isNull();
    assertThat(RateScope.of("acme", null)).isEqualTo("acme");
    assertThat(RateScope.of(null, "type")).isNull();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"permits\":1} | key",
        "{\"key\":\"\"} | key",
        "{\"key\":\"a\\u0000b\"} | key",
        "{\"key\":5} | key",
        "{\"key\":\"acme\",\"scope\":\"type\"} | key",
        "{\"scope\":\"everything\"} | scope",
        "{\"scope\":1} | scope"
      })
  void anythingElseIsA400NamingTheField(String body, String field) {
    assertProblem(() -> RateScope.of(json(body)), field);
  }

  @Test
  void theQueryFormIsCheckedAlike() {
    assertProblem(() -> RateScope.of(null, null), "key");
    assertProblem(() -> RateScope.of("", null), "key");
    assertProblem(() -> RateScope.of("a\u0000", null), "key");
    assertProblem(() -> RateScope.of("acme", "type"), "key");
    assertProblem(() -> RateScope.of(null, "all"), "scope");
    assertProblem(() -> Params.key("key", "a\u0000"), "key");
    assertThat(Params.key("key", "a/b c")).isEqualTo("a/b c");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"maxCount\":2147483647} | maxCount",
        "{\"maxCount\":1000001} | maxCount",
        "{\"maxCount\":0} | maxCount",
        "{\"maxCount\":2147483648} | maxCount",
        "{\"maxCount\":1.5} | maxCount"
      })
  void aCountOutOfRangeIsA400NamingIt(String body, String field) {
    assertProblem(() -> ThrottlersResource.count(json(body), field, null), field);
  }

  @ParameterizedTest
  @CsvSource({"P1000000D", "PT2562047788015215H", "P367D", "PT0S", "-PT1S", "1 minute"})
  void aPeriodOutOfRangeIsA400NamingIt(String period) {
    assertProblem(
        () -> ThrottlersResource.period(json("{\"period\":\"" + period + "\"}"), "period"),
        "period");
  }

  @Test
  void countsAndPeriodsInRangePass() {
    assertThat(ThrottlersResource.count(json("{\"maxCount\":1000000}"), "maxCount", null))
        .isEqualTo(1_000_000);
    assertThat(ThrottlersResource.period(json("{\"period\":\"P366D\"}"), "period")).hasDays(366);
  }

  private static void assertProblem(Runnable call, String field) {
    ApiProblem problem = catchThrowableOfType(call::run, ApiProblem.class);
    assertThat(problem).as("a problem naming " + field).isNotNull();
    assertThat(problem.status()).isEqualTo(400);
    JsonObject body = problem.toJson();
    assertThat(body.getString("parameter")).isEqualTo(field);
    assertThat(body.getString("detail")).startsWith(field + " ");
  }

  private static JsonObject json(String text) {
    try (var reader = Json.createReader(new StringReader(text))) {
      return reader.readObject();
    }
  }
}
