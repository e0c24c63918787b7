package io.taskgate.engine.trace;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanId;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceId;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.taskgate.engine.cluster.TaskgateVersion;
import io.taskgate.store.StoredTask;
import jakarta.enterprise.inject.spi.CDI;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.UUID;

/**
 * The spans, made with the application's OpenTelemetry (MicroProfile Telemetry). The only class
 * that names OpenTelemetry's; loaded only when tracing is on.
 */
final class OtelSpans implements Spans {
  static final AttributeKey<String> TASK_ID = AttributeKey.stringKey("taskgate.task.id");
  static final AttributeKey<String> TASK_TYPE = AttributeKey.stringKey("taskgate.task.type");
  static final AttributeKey<Long> TASK_COUNT = AttributeKey.longKey("taskgate.task.count");
  static final AttributeKey<String> QUEUE = AttributeKey.stringKey("taskgate.queue");
  static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("taskgate.attempt");
  static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("taskgate.outcome");
  static final AttributeKey<Boolean> DUPLICATE = AttributeKey.booleanKey("taskgate.duplicate");
  static final AttributeKey<String> THROTTLE = AttributeKey.stringKey("taskgate.throttle");
  static final AttributeKey<String> KEY = AttributeKey.stringKey("taskgate.key");
  static final AttributeKey<String> SLOT = AttributeKey.stringKey("taskgate.slot");
  static final AttributeKey<String> REASON = AttributeKey.stringKey("taskgate.reason");
  static final AttributeKey<String> LINKED = AttributeKey.stringKey("taskgate.link");

  private final Tracer tracer;
  private final InstantSource clock;
  private final Duration linkAfter;

  OtelSpans(Tracer tracer, InstantSource clock, Duration linkAfter) {
    this.tracer = tracer;
    this.clock = clock;
    this.linkAfter = linkAfter;
  }

  /** The spans of the application's OpenTelemetry (a CDI bean under MicroProfile Telemetry). */
  static OtelSpans open(InstantSource clock, Duration linkAfter) {
    OpenTelemetry otel = CDI.current().select(OpenTelemetry.class).get();
    return new OtelSpans(otel.getTracer("io.taskgate", TaskgateVersion.CURRENT), clock, linkAfter);
  }

  @Override
  public TaskTracing.Dispatch dispatching(String name, String type, int count) {
    SpanBuilder builder =
        tracer
            .spanBuilder(name)
            .setSpanKind(SpanKind.PRODUCER)
            .setStartTimestamp(clock.instant())
            .setAttribute(TASK_TYPE, type);
    if (count != 1) {
      builder.setAttribute(TASK_COUNT, (long) count);
    }
    Span span = builder.startSpan(); // in the current context: the dispatching code's span
    String parent = traceParent(span.getSpanContext());
    return new TaskTracing.Dispatch() {
      @Override
      public String traceParent() {
        return parent;
      }

      @Override
      public void stored(UUID id, String queue, boolean duplicate) {
        if (id != null) {
          span.setAttribute(TASK_ID, id.toString());
        }
        if (queue != null) {
          span.setAttribute(QUEUE, queue);
        }
        if (duplicate) {
          span.setAttribute(DUPLICATE, true);
        }
        span.end(clock.instant());
      }

      @Override
      public void failed(Throwable failure) {
        span.recordException(failure);
        span.setStatus(StatusCode.ERROR, String.valueOf(failure.getMessage()));
        span.end(clock.instant());
      }
    };
  }

  @Override
  public void waited(StoredTask task, int attempt, Waiting waiting) {
    SpanBuilder builder =
        inTaskTrace(
            tracer.spanBuilder("wait " + waiting.throttle()).setSpanKind(SpanKind.INTERNAL),
            task,
            waiting.since());
    builder
        .setAttribute(TASK_ID, task.id().toString())
        .setAttribute(ATTEMPT, (long) attempt)
        .setAttribute(THROTTLE, waiting.throttle())
        .setAttribute(REASON, waiting.reason());
    if (waiting.key() != null) {
      builder.setAttribute(KEY, waiting.key());
    }
    if (waiting.slot() != null) {
      builder.setAttribute(SLOT, waiting.slot().toString());
    }
    builder.startSpan().end(clock.instant());
  }

  @Override
  public TaskTracing.Attempt attempt(StoredTask task) {
    Instant start = clock.instant();
    Span span =
        inTaskTrace(
                tracer
                    .spanBuilder("run " + TaskTracing.simpleName(task.type()))
                    .setSpanKind(SpanKind.CONSUMER),
                task,
                start)
            .setAttribute(TASK_ID, task.id().toString())
            .setAttribute(TASK_TYPE, task.type())
            .setAttribute(QUEUE, task.queue())
            .setAttribute(ATTEMPT, (long) task.attempt())
            .startSpan();
    return new TaskTracing.Attempt() {
      private boolean ended;

      @Override
      public TaskTracing.Scope enter() {
        io.opentelemetry.context.Scope scope = span.makeCurrent();
        return scope::close;
      }

      @Override
      public void ended(String outcome, Throwable failure) {
        if (ended) {
          return;
        }
        ended = true;
        span.setAttribute(OUTCOME, outcome);
        if (failure != null) {
          span.recordException(failure);
          span.setStatus(StatusCode.ERROR, outcome + ": " + failure);
        }
        span.end(clock.instant());
      }
    };
  }

  /**
   * {@code builder} started at {@code start} in {@code task}'s trace: a child of its dispatch span
   * when it starts within the link-after duration of the dispatch, otherwise a new trace linked to
   * it; a new trace when the task carries no trace context.
   */
  private SpanBuilder inTaskTrace(SpanBuilder builder, StoredTask task, Instant start) {
    builder.setStartTimestamp(start);
    SpanContext dispatched = parse(task.traceParent());
    if (dispatched == null) {
      return builder.setNoParent();
    }
    if (Duration.between(task.createdAt(), start).compareTo(linkAfter) <= 0) {
      return builder.setParent(Context.root().with(Span.wrap(dispatched)));
    }
    return builder.setNoParent().addLink(dispatched, Attributes.of(LINKED, "dispatched by"));
  }

  /** {@code context} as a W3C traceparent (version 00), or null for an invalid one. */
  static String traceParent(SpanContext context) {
    if (!context.isValid()) {
      return null;
    }
    return "00-"
        + context.getTraceId()
        + "-"
        + context.getSpanId()
        + "-"
        + context.getTraceFlags().asHex();
  }

  /** The span context of a W3C traceparent, or null when there is none or it is not one. */
  static SpanContext parse(String traceParent) {
    if (traceParent == null || traceParent.length() < 55 || traceParent.charAt(2) != '-') {
      return null;
    }
    String traceId = traceParent.substring(3, 35);
    String spanId = traceParent.substring(36, 52);
    if (!TraceId.isValid(traceId) || !SpanId.isValid(spanId)) {
      return null;
    }
    try {
      SpanContext context =
          SpanContext.createFromRemoteParent(
              traceId, spanId, TraceFlags.fromHex(traceParent, 53), TraceState.getDefault());
      return context.isValid() ? context : null;
    } catch (RuntimeException e) {
      return null;
    }
  }
}
