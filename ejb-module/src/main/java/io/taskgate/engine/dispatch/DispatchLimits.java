package io.taskgate.engine.dispatch;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.InvalidDispatchOptionException;
import io.taskgate.api.Recurrence;
import io.taskgate.api.TaskTooLargeException;
import io.taskgate.core.task.Occurrences;
import io.taskgate.engine.handler.GateSpec;
import io.taskgate.engine.handler.HandlerInfo;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;

/**
 * What a dispatch is held to before anything is stored, beyond what {@link DispatchOptions} checks
 * itself: a recurrence's first occurrence lies within {@link DispatchOptions#MAX_DELAY} of now, and
 * a task's JSON is at most {@value #MAX_PAYLOAD_BYTES} bytes (UTF-8; default 1 MiB), read and
 * checked once when the application starts (a bad value fails the start, naming the key and the
 * value).
 */
@ApplicationScoped
public class DispatchLimits {
  private final Set<String> fastRecurrenceWarned = ConcurrentHashMap.newKeySet();

  /** Config key: the largest task, in bytes of its JSON form (UTF-8). */
  public static final String MAX_PAYLOAD_BYTES = "taskgate.dispatch.max-payload-bytes";

  static final int DEFAULT_MAX_PAYLOAD_BYTES = 1 << 20;

  private final Config config;

  private int maxPayloadBytes;

  /** For the CDI proxy. */
  protected DispatchLimits() {
    this(null);
  }

  @Inject
  DispatchLimits(Config config) {
    this.config = config;
  }

  /** Limits with this payload size, for code and tests outside the container. */
  public static DispatchLimits of(int maxPayloadBytes) {
    DispatchLimits limits = new DispatchLimits(null);
    limits.maxPayloadBytes = parseMaxPayloadBytes(Optional.of(Integer.toString(maxPayloadBytes)));
    return limits;
  }

  @PostConstruct
  void load() {
    try {
      maxPayloadBytes =
          parseMaxPayloadBytes(config.getOptionalValue(MAX_PAYLOAD_BYTES, String.class));
    } catch (IllegalArgumentException e) {
      // the container reports only that the bean could not be created: say why
      Logger.getLogger(DispatchLimits.class.getName()).severe(e.getMessage());
      throw e;
    }
  }

  /** Creates the bean when the application starts, so that a bad value fails the start. */
  void onStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
    maxPayloadBytes();
  }

  /** The largest task, in bytes of its JSON form (UTF-8). */
  public int maxPayloadBytes() {
    return maxPayloadBytes;
  }

  /**
   * Checks the size of a task's JSON form.
   *
   * @throws TaskTooLargeException if it is more than {@link #maxPayloadBytes()} bytes in UTF-8
   */
  public void checkPayload(String taskType, String json) {
    long bytes = utf8Length(json);
    if (bytes > maxPayloadBytes) {
      throw new TaskTooLargeException(taskType, bytes, maxPayloadBytes);
    }
  }

  /**
   * The first occurrence of {@code recurrence} for a series dispatched at {@code now}.
   *
   * @throws InvalidDispatchOptionException if it lies more than {@link DispatchOptions#MAX_DELAY}
   *     before or after {@code now} (option {@code recurrence})
   * @throws IllegalArgumentException if the recurrence has no occurrence after {@code now}
   */
  public static Instant firstOccurrence(Recurrence recurrence, Instant now) {
    Instant first =
        Occurrences.first(recurrence, now)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "Recurrence " + recurrence.encode() + " has no occurrence after " + now));
    if (first.isAfter(now.plus(DispatchOptions.MAX_DELAY))
        || first.isBefore(now.minus(DispatchOptions.MAX_DELAY))) {
      throw new InvalidDispatchOptionException(
          "recurrence",
          recurrence.encode(),
          "The first occurrence of recurrence "
              + recurrence.encode()
              + " must be within "
              + DispatchOptions.MAX_DELAY
              + " (100 years) of now ("
              + now
              + "), was "
              + first);
    }
    return first;
  }

  /** The value of {@value #MAX_PAYLOAD_BYTES}: a whole number of at least 1, default 1 MiB. */
  static int parseMaxPayloadBytes(Optional<String> text) {
    if (text.isEmpty()) {
      return DEFAULT_MAX_PAYLOAD_BYTES;
    }
    int value;
    try {
      value = Integer.parseInt(text.get().strip());
    } catch (NumberFormatException e) {
      value = 0;
    }
    if (value < 1) {
      throw new IllegalArgumentException(
          MAX_PAYLOAD_BYTES
              + " must be a whole number of bytes from 1 to "
              + Integer.MAX_VALUE
              + ", was '"
              + text.get()
              + "'");
    }
    return value;
  }

  /** The length of {@code text} in UTF-8 bytes (an unpaired surrogate counts as its 3 bytes). */
  static long utf8Length(CharSequence text) {
    long bytes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }

  /**
   * Warns, once per task type, when a recurrence comes round faster than its rate limit refills:
   * its occurrences would pile up behind the limiter.
   */
  void warnIfFasterThanItsRate(HandlerInfo handler, Recurrence recurrence, Instant first) {
    GateSpec gate = handler.gate().orElse(null);
    if (gate == null) {
      return;
    }
    Duration gap = Occurrences.shortestGap(recurrence, first).orElse(null);
    Duration refill = Duration.ofNanos(gate.policy().emissionIntervalNanos());
    if (gap != null && gap.compareTo(refill) < 0 && fastRecurrenceWarned.add(handler.typeName())) {
      Logger.getLogger(DispatchLimits.class.getName())
          .warning(
              "Recurring task type "
                  + handler.typeName()
                  + " comes round every "
                  + gap
                  + " but its rate limit refills one execution per "
                  + refill
                  + " per key: occurrences of a key will wait behind the limiter or be skipped");
    }
  }
}
