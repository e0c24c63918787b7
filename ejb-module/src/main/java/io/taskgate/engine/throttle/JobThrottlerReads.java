package io.taskgate.engine.throttle;

import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.ThrottlingAction;
import io.taskgate.api.WindowOptions;
import io.taskgate.core.throttle.JobKind;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.handler.ThrottlingSpec;
import io.taskgate.store.ThrottlerRecord;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * What the views read of the job throttlers (mutexes, semaphores, windows), without reaching into
 * them: their definitions, their state, the tasks retrying for one, what each did since this
 * instance started, and a task type's throttling with the global defaults applied.
 */
public interface JobThrottlerReads {
  /** The name the waiters and views use for throttler {@code id} of {@code kind}. */
  static String resource(ThrottlerKind kind, String id) {
    return kind.label() + ":" + id;
  }

  /**
   * Whether {@code resource} is a job throttler's (a state shared on the data grid also holds other
   * kinds' resources).
   */
  static boolean isJobResource(String resource) {
    int cut = resource.indexOf(':');
    if (cut <= 0) {
      return false;
    }
    String label = resource.substring(0, cut);
    return Arrays.stream(ThrottlerKind.values())
        .anyMatch(k -> k.label().equals(label) && JobKind.isJob(k));
  }

  /** The semaphores and windows defined, by kind then id. */
  List<ThrottlerRecord> definitions();

  /** Where the throttlers' holds and window counts are (this instance's memory, or the grid). */
  ThrottlerState state();

  /** The tasks waiting to retry for {@code resource} (strict throttles keep their hold). */
  Set<String> retrying(String resource);

  /** The options of window {@code id} of {@code kind}, or null if it is not defined. */
  WindowOptions window(ThrottlerKind kind, String id);

  /** What throttle {@code name} did since this instance started; zeros if nothing. */
  Counts counts(String name);

  /** Tells {@code listener} how long each task waited for a throttle before it let it run. */
  void onWaited(BiConsumer<String, Duration> listener);

  /** {@code spec} with the global defaults applied. */
  Resolved resolve(ThrottlingSpec spec);

  /** How often a throttle let a task run, made it wait, or dropped it. */
  record Counts(long acquired, long waited, long dropped) {
    /** Nothing yet. */
    public static final Counts NONE = new Counts(0, 0, 0);
  }

  /**
   * A task type's throttling with the global defaults applied.
   *
   * @param action WAIT or DROP
   * @param maxWait the max wait; null for none
   * @param strict whether permits are kept until the task's final state
   */
  record Resolved(ThrottlingAction action, Duration maxWait, boolean strict) {}
}
