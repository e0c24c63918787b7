package io.taskgate.engine.throttle;

import java.time.Instant;
import java.util.Set;
import java.util.UUID;

/**
 * Decides whether a claimed attempt may run now: the seam every throttle of the engine implements
 * (the keyed rate-limit gate today; mutexes, semaphores, windows and concurrency limits plug in the
 * same way).
 *
 * <p>Every implementation keeps these invariants, which {@code ThrottleContract} (a test suite any
 * implementation runs) checks:
 *
 * <ul>
 *   <li><b>Never blocks.</b> {@link #acquire} answers at once with a {@link ThrottleDecision}:
 *       waiting is the engine's business, and a waiting task holds no worker.
 *   <li><b>A permit for every run.</b> A {@link ThrottleDecision.Run} carries a {@link Permit},
 *       {@link Permit#NOTHING} when nothing is to be given back; any other decision holds nothing.
 *   <li><b>Released exactly once.</b> The engine releases every permit once, whatever the attempt
 *       ends in ({@link AttemptEnd}), or when another throttle of the task says no ({@link
 *       AttemptEnd#NOT_STARTED}); {@link ThrottleChain} makes a second release a no-op, so {@link
 *       #release} is called once per permit.
 *   <li><b>Wakes, not polled.</b> A throttle that answers {@link ThrottleDecision.WaitForRelease}
 *       names the resource; {@link #release} returns the resources it freed, and the engine wakes
 *       the tasks waiting for them, first come first served.
 *   <li><b>Thread-safe.</b> Any worker may call any method at any time.
 * </ul>
 *
 * <p>Several throttles on one task are acquired in a fixed global order, ascending {@link #order}
 * then {@link #name}, all or nothing ({@link ThrottleChain}): first the throttles whose permits can
 * be given back ({@link #RESOURCES}: mutexes, semaphores, concurrency), then the budgets whose
 * starts can be given back exactly ({@link #WINDOWS}: fixed, sliding and dynamic windows), and last
 * a budget spent by time that cannot be given back ({@link #BUDGETS}: the rate limit, whose slot,
 * once spent, later reservations of the key count on). So its decision is final: when it lets the
 * attempt run nothing after it can refuse it, and when it does not, what the others granted is
 * given back; a chain has at most one such budget. A fixed order means two tasks never hold what
 * the other waits for: no deadlock.
 */
public interface Throttle {
  /**
   * The order of the pauses ({@link Pausing}): first of all, holding nothing, so that a paused task
   * takes no permit from the throttles after it.
   */
  int PAUSES = 50;

  /** The order of throttles whose permits can be given back (mutex, semaphore, concurrency). */
  int RESOURCES = 100;

  /**
   * The order of budgets whose starts can be given back exactly (windows): after the resources,
   * before a budget spent by time.
   */
  int WINDOWS = 150;

  /**
   * The order of a budget spent by time that cannot be given back (the rate limit): the last of a
   * chain, at most one in it.
   */
  int BUDGETS = 200;

  /** A name unique among the throttles of a task, for the order and for messages. */
  String name();

  /**
   * Where this throttle comes in the global order: {@link #PAUSES}, {@link #RESOURCES}, {@link
   * #WINDOWS} or {@link #BUDGETS}.
   */
  int order();

  /** Decides for {@code attempt} at {@code now}, without blocking. */
  ThrottleDecision acquire(ThrottledAttempt attempt, Instant now);

  /**
   * Told that the chain did not ask this throttle for {@code attempt} at {@code now}, because a
   * throttle before it refused the attempt: what it keeps for the attempt from an earlier answer,
   * and could not be used in time now, may be dropped. Never blocks; the default does nothing.
   */
  default void passedOver(ThrottledAttempt attempt, Instant now) {}

  /**
   * Gives back what {@code permit} holds, the attempt having ended in {@code end}; returns the
   * resources this freed (their waiters may try again), empty when none. Called once per permit.
   */
  Set<String> release(Permit permit, AttemptEnd end);

  /**
   * The check this throttle makes on the worker right before the attempt it let run with {@code
   * permit} starts ({@link StartCheck}), {@link StartCheck#NONE} by default. Asked of the chain's
   * budget spent by time only ({@link #BUDGETS}), so that one check decides a start.
   */
  default StartCheck startOf(Permit permit, UUID taskId) {
    return StartCheck.NONE;
  }

  /**
   * The attempt this throttle let run at a slot ahead ({@link ThrottleDecision.Run#startAt}) is
   * claimed: the slot is the attempt's now, and it waits for it on the timeline, holding no worker.
   * Never blocks; the default does nothing.
   */
  default void claimedAhead(Permit permit, UUID taskId) {}

  /**
   * An attempt claimed ahead of its slot stops waiting for it: it starts now, or it is cancelled
   * before it starts. Never blocks; the default does nothing.
   */
  default void leftWaiting(Permit permit, UUID taskId) {}

  /**
   * The claims of attempts this throttle let run now were committed {@code nanos} after its
   * decision (told once per worker's batch); a throttle that decides for the moment an attempt
   * starts learns the lead from it. The default does nothing.
   */
  default void claimsCommitted(long nanos) {}

  /**
   * The upstream the attempt called, let run with {@code permit}, asked to slow down until {@code
   * until} ({@code reason}); the attempt ended at {@code now} and will be tried again. Returns when
   * the task should come back to its throttles, or null when this throttle leaves the wait to the
   * task (which then comes back at {@code until}). The rate limit moves the key's schedule so that
   * nothing of the key starts before {@code until}, and has the task back at once to park it.
   */
  default Instant pushedBack(
      Permit permit, UUID taskId, Instant until, Instant now, String reason) {
    return null;
  }
}
