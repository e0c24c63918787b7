package io.taskgate.engine.trace;

import io.taskgate.core.task.AttemptOutcomes;
import io.taskgate.engine.config.ConfigText;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.store.StoredTask;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;

/**
 * The engine's door to traces. On when the application turns MicroProfile Telemetry on ({@value
 * #OTEL_DISABLED}{@code =false}); off, every method returns at once, allocating nothing, and no
 * OpenTelemetry class is loaded.
 *
 * <ul>
 *   <li>{@link #dispatching}: a {@code dispatch} span in the dispatching code's trace; the task
 *       stores its context ({@link StoredTask#traceParent}).
 *   <li>{@link #refused}, {@link #heldUntil}: a throttle keeps a task waiting; the wait becomes a
 *       span named for the throttle ({@code wait rate-limit}) with the key, the slot and the
 *       reason, ended when the attempt starts (kept in memory: a wait that began on another
 *       instance, or before a restart, has no span).
 *   <li>{@link #attempt}: each attempt is a span ({@code run <Type>}) with the task's id, type,
 *       queue, attempt and outcome, current while the handler runs, so the handler's own spans are
 *       its children. It is a child of the dispatch span when it starts within {@value #LINK_AFTER}
 *       (default {@code PT1M}) of the dispatch, otherwise the root of a trace of its own with a
 *       link to the dispatch.
 * </ul>
 */
@ApplicationScoped
public class TaskTracing {
  private static final Logger LOG = Logger.getLogger(TaskTracing.class.getName());

  /** MicroProfile Telemetry's switch: tracing is on when it is {@code false}. */
  public static final String OTEL_DISABLED = "otel.sdk.disabled";

  /**
   * How long after its dispatch an attempt is still a child of the dispatch span; a later one
   * starts a trace of its own, linked to it.
   */
  public static final String LINK_AFTER = "taskgate.tracing.link-after";

  static final Duration DEFAULT_LINK_AFTER = Duration.ofMinutes(1);

  /** At most this many waits are remembered; the oldest is forgotten (its span is not made). */
  static final int MAX_WAITS = 10_000;

  /** Tracing off: for the engine's parts built outside the container. */
  public static final TaskTracing OFF = new TaskTracing((Spans) null);

  private final Spans spans;

  /** The waits begun and not yet ended in an attempt, by task; guarded by itself. */
  private final Map<UUID, Spans.Waiting> waits =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<UUID, Spans.Waiting> eldest) {
          return size() > MAX_WAITS;
        }
      };

  /** For the CDI proxy. */
  protected TaskTracing() {
    this((Spans) null);
  }

  @Inject
  TaskTracing(Config config, InstantSource clock) {
    this(open(key -> config.getOptionalValue(key, String.class), clock));
  }

  TaskTracing(Spans spans) {
    this.spans = spans;
  }

  /**
   * The spans {@code config} asks for: none when tracing is off; a bad {@value #LINK_AFTER} fails
   * the deployment, naming it.
   */
  static Spans open(Function<String, Optional<String>> config, InstantSource clock) {
    boolean on =
        config.apply(OTEL_DISABLED).map(v -> v.trim().equalsIgnoreCase("false")).orElse(false);
    Duration linkAfter =
        ConfigText.parse(
                config,
                LINK_AFTER,
                text -> {
                  Duration d = Duration.parse(text);
                  if (d.isNegative()) {
                    throw new IllegalArgumentException("negative");
                  }
                  return d;
                },
                "an ISO-8601 duration of zero or more, such as PT1M")
            .orElse(DEFAULT_LINK_AFTER);
    if (!on) {
      return null;
    }
    try {
      Spans spans = OtelSpans.open(clock, linkAfter);
      LOG.info(
          "Taskgate traces its dispatches, attempts and throttle waits (MicroProfile Telemetry is"
              + " on); an attempt more than "
              + linkAfter
              + " after its dispatch starts a trace of its own, linked to it ("
              + LINK_AFTER
              + ")");
      return spans;
    } catch (LinkageError | RuntimeException e) {
      LOG.log(
          Level.WARNING,
          OTEL_DISABLED
              + "=false, but this server gives the application no OpenTelemetry (MicroProfile"
              + " Telemetry): Taskgate makes no spans",
          e);
      return null;
    }
  }

  /** Whether tracing is on. */
  public boolean on() {
    return spans != null;
  }

  /**
   * A dispatch of {@code count} tasks of {@code type} begins: its span, or {@link Dispatch#NONE}
   * when tracing is off.
   */
  public Dispatch dispatching(String type, int count) {
    if (spans == null) {
      return Dispatch.NONE;
    }
    String name = count == 1 ? "dispatch " + simpleName(type) : "dispatch " + count + " tasks";
    return spans.dispatching(name, type, count);
  }

  /** A throttle ({@code by}) did not let {@code task} run now: its wait begins or goes on. */
  public void refused(StoredTask task, String by, ThrottleDecision decision, Instant now) {
    if (spans == null) {
      return;
    }
    if (decision instanceof ThrottleDecision.ParkUntil park) {
      waiting(
          task,
          by,
          task.rateKey(),
          park.until(),
          "over its key's rate: parked until its slot",
          now);
    } else if (decision instanceof ThrottleDecision.RetryAt retry) {
      waiting(task, by, task.rateKey(), retry.at(), "no room now: asks again at its slot", now);
    } else if (decision instanceof ThrottleDecision.WaitForRelease release) {
      waiting(
          task,
          by,
          release.resource(),
          release.recheckAt(),
          "waits for a permit of " + release.resource() + " to be given back",
          now);
    } else if (decision instanceof ThrottleDecision.HoldOnQueue hold) {
      waiting(task, by, task.rateKey(), null, hold.reason(), now);
    }
    // the others end the task's wait with no attempt: no span
  }

  /**
   * The rate limit holds {@code task}, claimed, until its reserved slot {@code until} ({@code why}:
   * claimed ahead of it, or held at its start for its key's spacing).
   */
  public void heldUntil(StoredTask task, Instant until, String why, Instant now) {
    if (spans == null) {
      return;
    }
    waiting(task, "rate-limit", task.rateKey(), until, why, now);
  }

  private void waiting(
      StoredTask task, String by, String key, Instant slot, String reason, Instant now) {
    Spans.Waiting ended = null;
    synchronized (waits) {
      Spans.Waiting was = waits.get(task.id());
      Instant since = now;
      if (was != null && was.throttle().equals(by)) {
        since = was.since();
      } else if (was != null) {
        ended = was; // another throttle holds it now: that wait is over
      }
      waits.put(task.id(), new Spans.Waiting(task.id(), by, key, slot, reason, since));
    }
    if (ended != null) {
      spans.waited(task, task.attempt() + 1, ended);
    }
  }

  /**
   * {@code claimed}'s attempt starts now: the span of the wait before it ends, and the attempt's
   * begins ({@link Attempt#NONE} when tracing is off).
   */
  public Attempt attempt(StoredTask claimed) {
    if (spans == null) {
      return Attempt.NONE;
    }
    Spans.Waiting waited;
    synchronized (waits) {
      waited = waits.remove(claimed.id());
    }
    if (waited != null) {
      spans.waited(claimed, claimed.attempt(), waited);
    }
    return spans.attempt(claimed);
  }

  /** The outcome attribute of an attempt that ended in {@code next}. */
  public static String outcome(AttemptOutcomes.Next next) {
    if (next instanceof AttemptOutcomes.Retry) {
      return "retry";
    }
    if (next instanceof AttemptOutcomes.Occurrence) {
      return "next-occurrence";
    }
    return ((AttemptOutcomes.Ended) next).status().name().toLowerCase(Locale.ROOT);
  }

  static String simpleName(String type) {
    int dot = Math.max(type.lastIndexOf('.'), type.lastIndexOf('$'));
    return type.substring(dot + 1);
  }

  /** A dispatch's span. */
  public interface Dispatch {
    /** No span: tracing is off. */
    Dispatch NONE =
        new Dispatch() {
          @Override
          public String traceParent() {
            return null;
          }

          @Override
          public void stored(UUID id, String queue, boolean duplicate) {}

          @Override
          public void failed(Throwable failure) {}
        };

    /** The span's context as a W3C {@code traceparent}, stored with the task; null when off. */
    String traceParent();

    /**
     * The task {@code id} (for several, the first; null for none) is stored on {@code queue} (null
     * for several), or was there already ({@code duplicate}): the span ends.
     */
    void stored(UUID id, String queue, boolean duplicate);

    /** The dispatch failed with {@code failure}: the span ends with an error. */
    void failed(Throwable failure);
  }

  /** An attempt's span. */
  public interface Attempt {
    /** No span: tracing is off. */
    Attempt NONE =
        new Attempt() {
          @Override
          public Scope enter() {
            return Scope.NONE;
          }

          @Override
          public void ended(String outcome, Throwable failure) {}
        };

    /** Makes the span current on this thread until the scope closes (the handler's spans nest). */
    Scope enter();

    /**
     * The attempt ended in {@code outcome} ({@link TaskTracing#outcome}, or {@code pushed-back},
     * {@code engine-failed}), with {@code failure} (or null): the span ends now; a second call does
     * nothing.
     */
    void ended(String outcome, Throwable failure);
  }

  /** A span made current on a thread. */
  public interface Scope extends AutoCloseable {
    /** Nothing made current. */
    Scope NONE = () -> {};

    @Override
    void close();
  }
}
