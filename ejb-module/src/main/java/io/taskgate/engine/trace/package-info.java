/**
 * Traces, the door to MicroProfile Telemetry: {@link io.taskgate.engine.trace.TaskTracing} is all
 * the rest of the engine calls. A dispatch is a span in the dispatching code's trace, and the task
 * carries that span's context (stored with it); each attempt is a span in that trace (or in a trace
 * of its own, linked to it, when it starts long after the dispatch), with the handler's own spans
 * inside; the time a task waited for a throttle before an attempt is a span of its own, named for
 * the throttle. Off unless the application turns MicroProfile Telemetry on ({@code
 * otel.sdk.disabled=false}); off, nothing here touches OpenTelemetry, whose classes only {@code
 * OtelSpans} names.
 */
package io.taskgate.engine.trace;
