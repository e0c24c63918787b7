package io.taskgate.web.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.InvalidDispatchOptionException;
import io.taskgate.api.TaskStatus;
import io.taskgate.engine.admin.dto.EndedTasks;
import io.taskgate.engine.admin.dto.RateLimitQuery;
import io.taskgate.engine.admin.dto.RateLimitSort;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ParamsTest {

  @Test
  void dispatchOptionsCarryDelayQueueAndKey() {
    DispatchOptions options = Params.dispatchOptions("PT5M", null, "mail", "k-1");

    assertThat(options.delay()).contains(Duration.ofMinutes(5));
    assertThat(options.at()).isEmpty();
    assertThat(options.queue()).contains("mail");
    assertThat(options.taskKey()).contains("k-1");
    assertThat(Params.dispatchOptions(null, null, null, null)).isEqualTo(DispatchOptions.now());
  }

  @Test
  void endedTasksAreOneOrMoreEndedStatusesAndTheFiltersGiven() {
    EndedTasks all = Params.ended("failed,Cancelled", null, null, null, null, null, null);
    assertThat(all.statuses()).containsExactlyInAnyOrder(TaskStatus.FAILED, TaskStatus.CANCELLED);
    assertThat(all.type()).isEmpty();

    EndedTasks narrow = Params.ended("FAILED", "Sync", "mail", "acme", "100% down", "PT1H", "P1D");
    assertThat(narrow)
        .isEqualTo(
            new EndedTasks(
                java.util.Set.of(TaskStatus.FAILED),
                Optional.of("Sync"),
                Optional.of("mail"),
                Optional.of("acme"),
                Optional.of("100% down"),
                Optional.of(Duration.ofHours(1)),
                Optional.of(Duration.ofDays(1))));
  }

  @ParameterizedTest
  @CsvSource(
      value = {
        "NULL, NULL, status",
        "queued, NULL, status",
        "'failed,', NULL, status",
        "nope, NULL, status",
        "failed, 1h, olderThan",
      },
      nullValues = "NULL")
  void badEndedTaskFiltersAreProblemsNamingTheParameter(
      String status, String olderThan, String parameter) {
    assertThatThrownBy(() -> Params.ended(status, null, null, null, null, olderThan, null))
        .isInstanceOfSatisfying(
            ApiProblem.class,
            p -> {
              assertThat(p.status()).isEqualTo(400);
              assertThat(p.toJson().getString("parameter")).isEqualTo(parameter);
            });
  }

  @ParameterizedTest
  @CsvSource({
    "2030-01-31T09:00:00Z, 2030-01-31T09:00:00Z",
    "2030-01-31T10:00:00+01:00, 2030-01-31T09:00:00Z"
  })
  void atAcceptsInstantsWithZoneOrOffset(String at, String expected) {
    assertThat(Params.dispatchOptions(null, at, null, null).at()).contains(Instant.parse(expected));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "PT1M|2030-01-01T00:00:00Z||at|Give either delay or at, not both",
        "5 minutes|||delay|ISO-8601 duration",
        "-PT1S|||delay|must not be negative",
        "|tomorrow||at|ISO-8601 instant",
        "||' '|queue|must not be blank",
      })
  void badDispatchParametersNameTheParameterAndValue(
      String delay, String at, String queue, String parameter, String message) {
    assertThatThrownBy(() -> Params.dispatchOptions(delay, at, queue, null))
        .isInstanceOfSatisfying(
            ApiProblem.class,
            p -> {
              assertThat(p.status()).isEqualTo(400);
              JsonObject body = body(p);
              assertThat(body.getString("parameter")).isEqualTo(parameter);
              assertThat(body.getString("detail")).contains(message);
            });
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "PT9999999999999H|||delay|delay must be at most PT876000H (100 years), was"
            + " PT9999999999999H",
        "P1000000D|||delay|delay must be at most PT876000H (100 years), was PT24000000H",
        "P106752D|||delay|delay must be at most PT876000H (100 years), was PT2562048H",
        "PT99999999999999999999H|||delay|delay must be an ISO-8601 duration such as PT30S or"
            + " PT5M, at most PT876000H",
      })
  void aDelayBeyondOneHundredYearsIsRefusedEchoingWhatWasSent(
      String delay, String at, String queue, String parameter, String detail) {
    assertThatThrownBy(() -> Params.dispatchOptions(delay, at, queue, null))
        .isInstanceOfSatisfying(
            ApiProblem.class,
            p -> {
              assertThat(p.status()).isEqualTo(400);
              JsonObject body = body(p);
              assertThat(body.getString("parameter")).isEqualTo(parameter);
              assertThat(body.getString("value")).isEqualTo(delay);
            })
        .hasMessage(detail);
  }

  @Test
  void aKeyOrQueueThatCannotBeStoredIsRefusedEchoingWhatWasSent() {
    String tooLong = "k".repeat(DispatchOptions.MAX_NAME_LENGTH + 1);
    assertThat(Params.dispatchOptions(null, null, null, tooLong.substring(1)).taskKey())
        .contains(tooLong.substring(1));
    for (String[] c :
        new String[][] {
          {"taskKey", tooLong, "taskKey must be at most 255 characters, was 256"},
          {"taskKey", "a\0b", "taskKey must not contain control characters, found U+0000"},
          {"queue", "q".repeat(300), "queue must be at most 255 characters, was 300"},
          {"queue", "q\tq", "queue must not contain control characters, found U+0009"},
        }) {
      String value = c[1];
      String queue = c[0].equals("queue") ? value : null;
      String key = c[0].equals("taskKey") ? value : null;
      assertThatThrownBy(() -> Params.dispatchOptions(null, null, queue, key))
          .as(c[0] + " " + c[2])
          .isInstanceOfSatisfying(
              ApiProblem.class,
              p -> {
                assertThat(body(p).getString("parameter")).isEqualTo(c[0]);
                assertThat(body(p).getString("value")).isEqualTo(value);
              })
          .hasMessageStartingWith(c[2]);
    }
  }

  @Test
  void anInstantTheEngineRefusesIsNamedWithTheTextSent() {
    InvalidDispatchOptionException refused =
        new InvalidDispatchOptionException("at", "+99999-01-01T00:00:00Z", "at must be within …");

    ApiProblem problem =
        Params.invalidOption(refused, null, "+99999-01-01T00:00:00.000Z", null, null);

    assertThat(problem.status()).isEqualTo(400);
    assertThat(body(problem).getString("parameter")).isEqualTo("at");
    assertThat(body(problem).getString("value")).isEqualTo("+99999-01-01T00:00:00.000Z");
    assertThat(problem).hasMessage("at must be within …");
    InvalidDispatchOptionException other =
        new InvalidDispatchOptionException("recurrence", "every=PT1S", "first occurrence …");
    assertThat(body(Params.invalidOption(other, null, null, null, null)).getString("value"))
        .isEqualTo("every=PT1S");
  }

  @Test
  void aFilterOnAStoredNameIsTrimmedAndRefusesControlCharacters() {
    assertThat(Params.filter("queue", " mail ")).contains("mail");
    assertThat(Params.filter("queue", null)).isEmpty();
    assertThat(Params.filter("type", "")).isEmpty();
    assertThatThrownBy(() -> Params.filter("type", "io.example\0.Report"))
        .isInstanceOfSatisfying(
            ApiProblem.class,
            p -> {
              assertThat(p.status()).isEqualTo(400);
              assertThat(body(p).getString("parameter")).isEqualTo("type");
              assertThat(body(p).getString("value")).isEqualTo("io.example\0.Report");
            })
        .hasMessage("type must not contain control characters, found U+0000");
  }

  @Test
  void anUnexpectedFailureNamesItsIncidentAndNothingElse() {
    JsonObject body = body(HttpProblemMappers.UnexpectedError.problem("4e1f"));

    assertThat(body.getInt("status")).isEqualTo(500);
    assertThat(body.getString("type")).isEqualTo("urn:taskgate:problem:internal-error");
    assertThat(body.getString("incident")).isEqualTo("4e1f");
    assertThat(body.getString("detail"))
        .isEqualTo(
            "The server could not handle the request; its log has the details under incident"
                + " 4e1f");
  }

  @Test
  void statusIsCaseInsensitiveAndBadOnesListTheValues() {
    assertThat(Params.status("completed")).contains(TaskStatus.COMPLETED);
    assertThat(Params.status(null)).isEmpty();
    assertThatThrownBy(() -> Params.status("DONE"))
        .isInstanceOfSatisfying(
            ApiProblem.class,
            p -> {
              assertThat(body(p).getString("value")).isEqualTo("DONE");
              assertThat(p.getMessage()).contains("QUEUED", "CANCELLED");
            });
  }

  @ParameterizedTest
  @CsvSource({"page, -1", "page, x", "size, 0", "size, 501", "size, 1e3"})
  void pageAndSizeOutOfRangeAreRefused(String parameter, String value) {
    assertThatThrownBy(
            () -> {
              if (parameter.equals("page")) {
                Params.page(value);
              } else {
                Params.size(value);
              }
            })
        .isInstanceOfSatisfying(
            ApiProblem.class, p -> assertThat(body(p).getString("parameter")).isEqualTo(parameter));
  }

  @Test
  void pageAndSizeHaveDefaults() {
    assertThat(Params.page(null)).isZero();
    assertThat(Params.size(null)).isEqualTo(50);
    assertThat(Params.size("500")).isEqualTo(500);
  }

  @Test
  void idsMustBeCanonicalUuids() {
    UUID id = UUID.randomUUID();
    assertThat(Params.uuid("id", id.toString())).isEqualTo(id);
    assertThatThrownBy(() -> Params.uuid("id", "1-2-3-4-5")).isInstanceOf(ApiProblem.class);
    assertThatThrownBy(() -> Params.uuid("id", "nope")).isInstanceOf(ApiProblem.class);
  }

  @Test
  void problemBodiesEscapeWhatTheUserSent() {
    String evil = "\"},\"status\":200,\"x\":\"<script>";
    JsonObject body = body(ApiProblem.invalidParameter("delay", evil, "bad"));

    assertThat(body.getString("value")).isEqualTo(evil);
    assertThat(body.getInt("status")).isEqualTo(400);
    assertThat(body.getString("type")).isEqualTo(ApiProblem.INVALID_PARAMETER);
    assertThat(body.getString("title")).isEqualTo("Invalid parameter");
    assertThat(body.containsKey("x")).isFalse();
    assertThat(Optional.ofNullable(body.get("detail"))).isPresent();
  }

  private static JsonObject body(ApiProblem problem) {
    // Through text, as a client reads it.
    try (var reader = Json.createReader(new StringReader(problem.toJson().toString()))) {
      return reader.readObject();
    }
  }

  @Test
  void aRateLimitQueryHasDefaultsPerSort() {
    RateLimitQuery defaults = Params.rateLimitQuery(null, null, null, null, null, null, null);
    assertThat(defaults)
        .isEqualTo(
            new RateLimitQuery(
                Optional.empty(), Optional.empty(), false, RateLimitSort.KEY, false, 0, 50));

    RateLimitQuery parked =
        Params.rateLimitQuery("Mail", " a/b ", "TRUE", "parked", null, "2", "10");
    assertThat(parked)
        .isEqualTo(
            new RateLimitQuery(
                Optional.of("Mail"),
                Optional.of(" a/b "),
                true,
                RateLimitSort.PARKED,
                true,
                2,
                10));
    assertThat(Params.rateLimitQuery(null, null, "false", "nextSlot", "asc", null, null))
        .extracting(RateLimitQuery::sort, RateLimitQuery::descending, RateLimitQuery::throttledOnly)
        .containsExactly(RateLimitSort.NEXT_SLOT, false, false);
  }

  @ParameterizedTest
  @CsvSource(
      nullValues = "NULL",
      value = {
        "bogus, NULL, NULL, NULL, NULL, sort, 'sort must be one of [key, parked, nextSlot]'",
        "NULL, up, NULL, NULL, NULL, order, 'order must be asc or desc'",
        "NULL, NULL, -1, NULL, NULL, page, 'page must not be negative'",
        "NULL, NULL, NULL, 501, NULL, size, 'size must be from 1 to 500'",
        "NULL, NULL, 200, 500, NULL, page,"
            + " '(page + 1) × size must be at most 100000: narrow the rows with type, key or throttled"
            + " instead'",
        "NULL, NULL, NULL, NULL, yes, throttled, 'throttled must be true or false'",
      })
  void aBadRateLimitParameterIsNamed(
      String sort,
      String order,
      String page,
      String size,
      String throttled,
      String name,
      String detail) {
    assertThatThrownBy(() -> Params.rateLimitQuery(null, null, throttled, sort, order, page, size))
        .isInstanceOfSatisfying(
            ApiProblem.class,
            p -> {
              assertThat(p.status()).isEqualTo(400);
              assertThat(p.toJson().getString("parameter")).isEqualTo(name);
            })
        .hasMessage(detail);
  }
}
