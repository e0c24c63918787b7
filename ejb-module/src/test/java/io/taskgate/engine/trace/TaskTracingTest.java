package io.taskgate.engine.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.taskgate.api.TaskStatus;
import io.taskgate.core.task.AttemptOutcomes;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.time.SettableClock;
import io.taskgate.store.StoredTask;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The spans, made with OpenTelemetry's SDK and its in-memory exporter at a settable clock: the tree
 * a dispatch, a park, an attempt that fails and its retry make; a link for an attempt long after
 * its dispatch; nothing at all when tracing is off.
 */
class TaskTracingTest {
  private static final Instant T0 = Instant.parse("2026-12-07T10:00:00Z");

  private final SettableClock clock = new SettableClock(T0);
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final SdkTracerProvider provider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
  private final TaskTracing tracing =
      new TaskTracing(new OtelSpans(provider.get("test"), clock, Duration.ofMinutes(1)));

  @AfterEach
  void close() {
    provider.shutdown().join(5, TimeUnit.SECONDS);
  }

  @Test
  void aDispatchInARequestThenAParkThenAFailedAttemptAndItsRetryMakeOneTree() {
    Span request = provider.get("test").spanBuilder("POST /orders").startSpan();
    StoredTask task;
    try (Scope ignored = request.makeCurrent()) {
      TaskTracing.Dispatch dispatch = tracing.dispatching("com.acme.SyncOrder", 1);
      task = queued().withTraceParent(dispatch.traceParent());
      dispatch.stored(task.id(), "default", false);
    } finally {
      request.end();
    }
    // parked by its key's rate limit for 3 s, then its first attempt fails and is retried
    tracing.refused(task, "rate-limit", new ThrottleDecision.ParkUntil(T0.plusSeconds(3)), T0);
    clock.advance(Duration.ofSeconds(3));
    TaskTracing.Attempt first = tracing.attempt(task.withAttempt(1));
    Span inHandler;
    try (TaskTracing.Scope current = first.enter()) {
      inHandler = provider.get("handler").spanBuilder("GET /upstream").startSpan();
      inHandler.end();
    }
    clock.advance(Duration.ofMillis(200));
    first.ended(
        TaskTracing.outcome(new AttemptOutcomes.Retry(clock.instant(), Duration.ofSeconds(2))),
        new IllegalStateException("upstream answered 500"));
    clock.advance(Duration.ofSeconds(2));
    TaskTracing.Attempt second = tracing.attempt(task.withAttempt(2));
    clock.advance(Duration.ofMillis(100));
    second.ended(TaskTracing.outcome(new AttemptOutcomes.Ended(TaskStatus.COMPLETED)), null);

    SpanData post = span("POST /orders");
    SpanData dispatch = span("dispatch SyncOrder");
    SpanData wait = span("wait rate-limit");
    List<SpanData> runs = spans("run SyncOrder");
    assertThat(dispatch.getParentSpanId()).isEqualTo(post.getSpanId());
    assertThat(dispatch.getKind()).isEqualTo(SpanKind.PRODUCER);
    assertThat(attributes(dispatch))
        .containsEntry("taskgate.task.id", task.id().toString())
        .containsEntry("taskgate.task.type", "com.acme.SyncOrder")
        .containsEntry("taskgate.queue", "default");
    assertThat(task.traceParent())
        .isEqualTo("00-" + post.getTraceId() + "-" + dispatch.getSpanId() + "-01");

    assertThat(wait.getTraceId()).isEqualTo(post.getTraceId());
    assertThat(wait.getParentSpanId()).isEqualTo(dispatch.getSpanId());
    assertThat(Instant.ofEpochSecond(0, wait.getStartEpochNanos())).isEqualTo(T0);
    assertThat(Instant.ofEpochSecond(0, wait.getEndEpochNanos())).isEqualTo(T0.plusSeconds(3));
    assertThat(attributes(wait))
        .containsEntry("taskgate.throttle", "rate-limit")
        .containsEntry("taskgate.key", "acme")
        .containsEntry("taskgate.slot", T0.plusSeconds(3).toString())
        .containsEntry("taskgate.reason", "over its key's rate: parked until its slot")
        .containsEntry("taskgate.attempt", 1L);

    assertThat(runs).hasSize(2);
    SpanData failed = runs.get(0);
    SpanData retried = runs.get(1);
    for (SpanData run : runs) {
      assertThat(run.getTraceId()).isEqualTo(post.getTraceId());
      assertThat(run.getParentSpanId()).isEqualTo(dispatch.getSpanId());
      assertThat(run.getKind()).isEqualTo(SpanKind.CONSUMER);
      assertThat(attributes(run))
          .containsEntry("taskgate.task.id", task.id().toString())
          .containsEntry("taskgate.task.type", "com.acme.SyncOrder")
          .containsEntry("taskgate.queue", "default");
    }
    assertThat(attributes(failed))
        .containsEntry("taskgate.attempt", 1L)
        .containsEntry("taskgate.outcome", "retry");
    assertThat(failed.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(failed.getEvents()).extracting(e -> e.getName()).containsExactly("exception");
    assertThat(Instant.ofEpochSecond(0, failed.getStartEpochNanos())).isEqualTo(T0.plusSeconds(3));
    assertThat(span("GET /upstream").getParentSpanId()).isEqualTo(failed.getSpanId());
    assertThat(attributes(retried))
        .containsEntry("taskgate.attempt", 2L)
        .containsEntry("taskgate.outcome", "completed");
    assertThat(retried.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    assertThat(spans("wait rate-limit")).as("no wait before the retry").hasSize(1);
  }

  @Test
  void anAttemptLongAfterItsDispatchStartsATraceOfItsOwnLinkedToIt() {
    TaskTracing.Dispatch dispatch = tracing.dispatching("com.acme.Report", 1);
    StoredTask task = queued().withTraceParent(dispatch.traceParent());
    dispatch.stored(task.id(), "default", false);
    clock.advance(Duration.ofMinutes(1).plusMillis(1));

    tracing.attempt(task.withAttempt(1)).ended("completed", null);

    SpanData run = span("run SyncOrder");
    SpanData dispatched = span("dispatch Report");
    assertThat(run.getTraceId()).isNotEqualTo(dispatched.getTraceId());
    assertThat(run.getParentSpanContext().isValid()).isFalse();
    assertThat(run.getLinks()).hasSize(1);
    assertThat(run.getLinks().get(0).getSpanContext().getSpanId())
        .isEqualTo(dispatched.getSpanId());
  }

  @Test
  void aWaitForOneThrottleThenAnotherIsTwoSpansAndAWindowsRetriesAreOne() {
    StoredTask task = queued();
    tracing.refused(task, "semaphore:pdf", new ThrottleDecision.WaitForRelease("pdf"), T0);
    clock.advance(Duration.ofSeconds(5));
    tracing.refused(
        task,
        "semaphore:pdf",
        new ThrottleDecision.WaitForRelease("pdf", T0.plusSeconds(30)),
        clock.instant());
    clock.advance(Duration.ofSeconds(5));
    tracing.heldUntil(
        task, T0.plusSeconds(12), "claimed ahead of its reserved slot", clock.instant());
    clock.advance(Duration.ofSeconds(2));
    tracing.attempt(task.withAttempt(1)).ended("completed", null);

    SpanData semaphore = span("wait semaphore:pdf");
    SpanData rate = span("wait rate-limit");
    assertThat(Instant.ofEpochSecond(0, semaphore.getStartEpochNanos())).isEqualTo(T0);
    assertThat(Instant.ofEpochSecond(0, semaphore.getEndEpochNanos()))
        .isEqualTo(T0.plusSeconds(10));
    assertThat(attributes(semaphore))
        .containsEntry("taskgate.key", "pdf")
        .containsEntry("taskgate.slot", T0.plusSeconds(30).toString())
        .containsEntry("taskgate.reason", "waits for a permit of pdf to be given back");
    assertThat(Instant.ofEpochSecond(0, rate.getStartEpochNanos())).isEqualTo(T0.plusSeconds(10));
    assertThat(Instant.ofEpochSecond(0, rate.getEndEpochNanos())).isEqualTo(T0.plusSeconds(12));
    // a task without a trace context: a trace of its own, all three in it
    assertThat(span("run SyncOrder").getParentSpanContext().isValid()).isFalse();
  }

  @Test
  void aTaskThatEndsWithoutWaitingHasNoWaitSpanAndDropsMakeNone() {
    StoredTask task = queued();
    tracing.refused(task, "mutex:x", new ThrottleDecision.Drop("mutex:x", "busy"), T0);
    tracing.attempt(task.withAttempt(1)).ended("completed", null);

    assertThat(exporter.getFinishedSpanItems())
        .extracting(SpanData::getName)
        .containsExactly("run SyncOrder");
  }

  @Test
  void anAttemptEndsOnceAndAFailedDispatchIsAnError() {
    TaskTracing.Attempt attempt = tracing.attempt(queued().withAttempt(1));
    attempt.ended("completed", null);
    attempt.ended("engine-failed", null);
    tracing.dispatching("com.acme.SyncOrder", 3).failed(new IllegalArgumentException("bad"));

    assertThat(attributes(span("run SyncOrder"))).containsEntry("taskgate.outcome", "completed");
    SpanData batch = span("dispatch 3 tasks");
    assertThat(batch.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(attributes(batch)).containsEntry("taskgate.task.count", 3L);
  }

  @Test
  void offItMakesNoSpanAndStoresNoContext() {
    TaskTracing off = new TaskTracing(TaskTracing.open(key -> Optional.empty(), clock));
    StoredTask task = queued();

    assertThat(off.on()).isFalse();
    assertThat(off.dispatching("com.acme.SyncOrder", 1)).isSameAs(TaskTracing.Dispatch.NONE);
    assertThat(off.dispatching("com.acme.SyncOrder", 1).traceParent()).isNull();
    off.refused(task, "rate-limit", new ThrottleDecision.ParkUntil(T0), T0);
    assertThat(off.attempt(task)).isSameAs(TaskTracing.Attempt.NONE);
    assertThat(TaskTracing.OFF.on()).isFalse();
    assertThat(exporter.getFinishedSpanItems()).isEmpty();
  }

  @Test
  void aBadLinkAfterFailsNamingTheSettingAndTheValue() {
    assertThatThrownBy(
            () ->
                TaskTracing.open(
                    key -> Optional.ofNullable(Map.of(TaskTracing.LINK_AFTER, "a minute").get(key)),
                    clock))
        .hasMessageContaining(TaskTracing.LINK_AFTER)
        .hasMessageContaining("a minute");
  }

  @Test
  void aTraceParentIsReadBackAndNonsenseIsNoContext() {
    String parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    assertThat(OtelSpans.traceParent(OtelSpans.parse(parent))).isEqualTo(parent);
    assertThat(OtelSpans.parse(null)).isNull();
    assertThat(OtelSpans.parse("00-00000000000000000000000000000000-b7ad6b7169203331-01")).isNull();
    assertThat(OtelSpans.parse("garbage")).isNull();
    assertThat(OtelSpans.parse("00-0af7651916cd43dd8448eb211c80319c-zzzzzzzzzzzzzzzz-01")).isNull();
  }

  private static StoredTask queued() {
    return StoredTask.queued(
            UUID.randomUUID(), "com.acme.SyncOrder", "{}", "default", null, T0, null, T0)
        .withRateKey("acme");
  }

  private SpanData span(String name) {
    List<SpanData> named = spans(name);
    assertThat(named).as("spans named " + name).hasSize(1);
    return named.get(0);
  }

  private List<SpanData> spans(String name) {
    return exporter.getFinishedSpanItems().stream().filter(s -> s.getName().equals(name)).toList();
  }

  private static Map<String, Object> attributes(SpanData span) {
    Map<String, Object> out = new java.util.HashMap<>();
    span.getAttributes().forEach((AttributeKey<?> k, Object v) -> out.put(k.getKey(), v));
    return out;
  }
}
