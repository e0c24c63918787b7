package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.it.OtlpReceiver.ReceivedSpan;
import io.taskgate.it.engine.GatedTasks;
import io.taskgate.it.engine.TracingOn;
import jakarta.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Traces on a running server: the WAR on Payara Micro with MicroProfile Telemetry turned on ({@link
 * TracingOn}), exporting over OTLP/HTTP to a receiver in this test ({@link OtlpReceiver}). A task
 * dispatched through the REST API by a request that carries a W3C {@code traceparent} is parked by
 * its key's rate limit, fails its first attempt, waits again for the key's budget and completes its
 * retry: one trace, in the tree the tracing guide draws.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class TracingIT {
  private static final String ADMIN = "admin";
  private static final String ADMIN_PASSWORD = "taskgate";

  /** 1 per second per key; its first attempt fails and its retry (50 ms later) waits for budget. */
  private static final String FLAKY = GatedTasks.FlakyPaced.class.getName();

  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  private static OtlpReceiver receiver;

  @ArquillianResource URL baseUrl;

  @Deployment(testable = false)
  static WebArchive taskgateWar() {
    try {
      receiver = new OtlpReceiver();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return EngineIT.taskgateWar(List.of(TracingOn.class))
        .addAsResource(new StringAsset(Integer.toString(receiver.port())), TracingOn.PORT_FILE);
  }

  @AfterAll
  static void stopReceiver() {
    if (receiver != null) {
      receiver.close();
    }
  }

  @Test
  void aRestDispatchItsParkItsFailedAttemptAndItsRetryAreOneTrace() throws Exception {
    String key = "traced-" + UUID.randomUUID().toString().substring(0, 8);
    String traceId = HexFormat.of().formatHex(randomBytes(16));
    String callerSpanId = HexFormat.of().formatHex(randomBytes(8));
    // the first task of the key takes its budget: the traced one parks for the next slot
    String first = dispatch(key, key + "-first", null);
    String traced = dispatch(key, key + "-traced", "00-" + traceId + "-" + callerSpanId + "-01");
    awaitCompleted(first);
    awaitCompleted(traced);

    List<ReceivedSpan> trace =
        Await.until(
            () -> receiver.spans().stream().filter(s -> s.traceId().equals(traceId)).toList(),
            spans -> spans.stream().filter(s -> s.name().equals("run FlakyPaced")).count() == 2,
            Duration.ofSeconds(30),
            spans ->
                "spans of trace "
                    + traceId
                    + ": "
                    + names(spans)
                    + "; refused: "
                    + receiver.refused());

    ReceivedSpan server =
        only(trace, s -> s.kind() == ReceivedSpan.KIND_SERVER, "the REST request's span");
    assertThat(server.parentSpanId()).as("the caller's span").isEqualTo(callerSpanId);
    ReceivedSpan dispatch = only(trace, s -> s.name().equals("dispatch FlakyPaced"), "dispatch");
    assertThat(dispatch.kind()).isEqualTo(ReceivedSpan.KIND_PRODUCER);
    assertThat(dispatch.parentSpanId()).isEqualTo(server.spanId());
    assertThat(dispatch.attribute("taskgate.task.id")).isEqualTo(traced);
    assertThat(dispatch.attribute("taskgate.task.type")).isEqualTo(FLAKY);
    assertThat(dispatch.attribute("taskgate.queue")).isEqualTo("default");

    List<ReceivedSpan> runs = sorted(trace, "run FlakyPaced");
    List<ReceivedSpan> waits = sorted(trace, "wait rate-limit");
    assertThat(runs).hasSize(2);
    assertThat(waits).as("a wait before each attempt").hasSize(2);
    for (int i = 0; i < 2; i++) {
      ReceivedSpan run = runs.get(i);
      ReceivedSpan wait = waits.get(i);
      assertThat(run.parentSpanId()).isEqualTo(dispatch.spanId());
      assertThat(run.kind()).isEqualTo(ReceivedSpan.KIND_CONSUMER);
      assertThat(run.attribute("taskgate.task.id")).isEqualTo(traced);
      assertThat(run.attribute("taskgate.task.type")).isEqualTo(FLAKY);
      assertThat(run.attribute("taskgate.queue")).isEqualTo("default");
      assertThat(run.attribute("taskgate.attempt")).isEqualTo((long) i + 1);
      assertThat(wait.parentSpanId()).isEqualTo(dispatch.spanId());
      assertThat(wait.attribute("taskgate.throttle")).isEqualTo("rate-limit");
      assertThat(wait.attribute("taskgate.key")).isEqualTo(key);
      assertThat(wait.attribute("taskgate.attempt")).isEqualTo((long) i + 1);
      assertThat((String) wait.attribute("taskgate.slot")).isNotBlank();
      assertThat((String) wait.attribute("taskgate.reason")).isNotBlank();
      // the wait ends as its attempt starts, and lasts most of the key's second
      assertThat(wait.endNanos()).isLessThanOrEqualTo(run.startNanos());
      assertThat(wait.endNanos() - wait.startNanos()).isGreaterThan(300_000_000L);
    }
    assertThat(dispatch.endNanos()).isLessThanOrEqualTo(waits.get(0).endNanos());
    assertThat(runs.get(0).endNanos()).isLessThanOrEqualTo(waits.get(1).startNanos());
    assertThat(runs.get(0).attribute("taskgate.outcome")).isEqualTo("retry");
    assertThat(runs.get(0).statusCode()).isEqualTo(ReceivedSpan.STATUS_ERROR);
    assertThat(runs.get(1).attribute("taskgate.outcome")).isEqualTo("completed");
    assertThat(runs.get(1).statusCode()).isNotEqualTo(ReceivedSpan.STATUS_ERROR);
    // the untraced first task: its own trace (the REST request's), not this one
    assertThat(trace).noneMatch(s -> first.equals(s.attribute("taskgate.task.id")));
  }

  private String dispatch(String key, String id, String traceParent) throws Exception {
    String body = Json.createObjectBuilder().add("key", key).add("id", id).build().toString();
    HttpRequest.Builder request =
        HttpRequest.newBuilder(api("tasks/" + URLEncoder.encode(FLAKY, StandardCharsets.UTF_8)))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .header(
                "Authorization",
                "Basic "
                    + Base64.getEncoder()
                        .encodeToString(
                            (ADMIN + ":" + ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8)))
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (traceParent != null) {
      request.header("traceparent", traceParent);
    }
    HttpResponse<String> response =
        CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
    return Http.json(response).getString("id");
  }

  private void awaitCompleted(String id) throws Exception {
    Http.awaitJson(
        api("tasks/" + id),
        ADMIN,
        ADMIN_PASSWORD,
        task -> task.getString("status").equals("COMPLETED"),
        Duration.ofSeconds(30));
  }

  private URI api(String path) {
    return URI.create(baseUrl.toString()).resolve("api/" + path);
  }

  private static ReceivedSpan only(
      List<ReceivedSpan> spans, java.util.function.Predicate<ReceivedSpan> which, String what) {
    List<ReceivedSpan> found = spans.stream().filter(which).toList();
    assertThat(found).as(what + " among " + names(spans)).hasSize(1);
    return found.get(0);
  }

  private static List<ReceivedSpan> sorted(List<ReceivedSpan> spans, String name) {
    return spans.stream()
        .filter(s -> s.name().equals(name))
        .sorted(Comparator.comparingLong(ReceivedSpan::startNanos))
        .toList();
  }

  private static List<String> names(List<ReceivedSpan> spans) {
    return spans.stream().map(s -> s.name() + "(" + s.kind() + ")").toList();
  }

  private static byte[] randomBytes(int n) {
    byte[] bytes = new byte[n];
    ThreadLocalRandom.current().nextBytes(bytes);
    bytes[0] |= 1; // never all zero
    return bytes;
  }
}
