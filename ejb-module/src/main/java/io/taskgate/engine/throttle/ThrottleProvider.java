package io.taskgate.engine.throttle;

import io.taskgate.api.Task;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.Payloads;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskQueries;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * A kind of throttle, as the engine finds it: a CDI bean that puts its {@link Throttle}s on the
 * task types that declare them and answers for the tasks it keeps waiting. The engine reaches every
 * kind through {@link Throttles}, which asks each provider in turn; every method but {@link
 * #throttlesOf} has a default for a kind that has nothing to say. Thread-safe, never blocking.
 */
public interface ThrottleProvider {
  /** The throttles of this kind on {@code handler}'s task type; empty when it declares none. */
  List<? extends Throttle> throttlesOf(HandlerInfo handler);

  /**
   * Before any task runs: takes back from the store what tasks that started and did not end hold
   * ({@code handlers}' task types, read with {@code queries} and {@code payloads}); returns how
   * many holds it took.
   */
  default int start(Collection<HandlerInfo> handlers, TaskQueries queries, Payloads payloads) {
    return 0;
  }

  /**
   * Keeps this kind's shared state in {@code state} (the data grid's) instead of this instance's
   * memory; a kind without shared state ignores it.
   */
  default void useState(ThrottlerState state) {}

  /**
   * The key {@code handler}'s throttles of this kind throttle {@code task} by, stored with the task
   * for the views; null when it has none or it cannot be read (the throttle reads it again itself).
   */
  default String keyOf(HandlerInfo handler, Task task) {
    return null;
  }

  /**
   * Refuses at dispatch a task of {@code handler}'s type that this kind could never run, with an
   * {@link io.taskgate.api.InvalidTaskException} naming what is wrong ({@code where}: which task of
   * a batch, or null). The default refuses nothing.
   */
  default void check(HandlerInfo handler, Task task, String where) {}

  /**
   * When a task of {@code handler}'s type with key {@code key} (null: none), due at {@code due},
   * would start by this kind's budgets: {@code due} when they do not delay it. An estimate only:
   * nothing is spent or reserved, and it never throws.
   */
  default Instant estimatedStart(HandlerInfo handler, String key, Instant due, Instant now) {
    return due;
  }

  /**
   * How long before its slot a task this kind parked comes back to be claimed ahead of it ({@link
   * ThrottleDecision.Run#startAt}); zero when this kind claims nothing ahead. At most {@link
   * Throttles#MAX_CLAIM_AHEAD}.
   */
  default Duration claimAhead() {
    return Duration.ZERO;
  }

  /**
   * The copy of a task this kind keeps in memory while the task waits for it (as read when it was
   * parked, or as re-dispatched since), or null when it keeps none.
   */
  default StoredTask waitingCopy(UUID taskId) {
    return null;
  }

  /**
   * A task waiting for this kind was cancelled while QUEUED: what it keeps for the task (a
   * reservation, a place on a queue) is given up. Returns whether it kept anything.
   */
  default boolean cancelled(UUID taskId) {
    return false;
  }

  /**
   * A task waiting for this kind got a new payload (dispatched again with its task key); the copy
   * kept for it is replaced. Returns when it is to start, or null when this kind keeps none.
   */
  default Instant replaced(StoredTask task) {
    return null;
  }

  /**
   * Whether the tasks of {@code handler}'s type that one worker runs in one batch share the permits
   * of this kind's throttles (a semaphore's, say), so that a worker may run waiters of a resource
   * its batch freed itself ({@link #handsOverOnRelease}).
   */
  default boolean sharesPermits(HandlerInfo handler) {
    return false;
  }

  /**
   * Whether a release of {@code resource}, one of this kind's, hands its first waiters over to the
   * releasing worker when they share its batch's permit ({@link #sharesPermits}), instead of waking
   * them onto their queue.
   */
  default boolean handsOverOnRelease(String resource) {
    return false;
  }

  /** This kind's throttles as the views list them; empty when it lists none. */
  default List<ThrottleRow> rows() {
    return List.of();
  }
}
