package io.taskgate.engine.limiter;

import io.taskgate.api.QueueOrder;
import io.taskgate.core.limiter.RateLimitLease;
import io.taskgate.core.limiter.RateLimiter;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Adds waiting to any {@link RateLimiter}: a request that cannot be granted now joins a bounded
 * queue and is retried when the limiter's retry-after has passed (or after the poll interval when
 * the limiter cannot tell), or as soon as a lease handed out here is closed.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>The queue holds at most {@code queueLimit} permits. {@link QueueOrder#OLDEST_FIRST}:
 *       waiters are served in arrival order, and a newcomer that does not fit is refused at once.
 *       {@link QueueOrder#NEWEST_FIRST}: the newest waiter is served first (a newcomer even
 *       overtakes the queue), and a newcomer that does not fit evicts the oldest waiters, whose
 *       futures complete with a refused lease.
 *   <li>The served waiter blocks those behind it: nobody overtakes a waiter that is still refused.
 *   <li>Futures never complete exceptionally: a refusal, eviction, timeout or {@link #close()}
 *       completes them with a refused lease whose reason says which. Cancelling a future removes
 *       its waiter from the queue; a lease granted concurrently with the cancellation is closed.
 *   <li>Decisions use the handed-in clock; waiting and timeouts use the handed-in scheduler's
 *       delays. Results complete on the scheduler's threads or on the calling thread.
 * </ul>
 */
public final class WaitingRateLimiter implements AutoCloseable {

  private final RateLimiter limiter;
  private final WaitingRateLimiterOptions options;
  private final LongSupplier nanoClock;
  private final ScheduledExecutorService scheduler;

  private final ReentrantLock lock = new ReentrantLock();
  private final Deque<Waiter> queue = new ArrayDeque<>(); // guarded by lock
  private int queuedPermits; // guarded by lock
  private ScheduledFuture<?> pendingDrain; // guarded by lock
  private boolean closed; // guarded by lock

  private static final class Waiter {
    final int permits;
    final CompletableFuture<RateLimitLease> future = new CompletableFuture<>();

    Waiter(int permits) {
      this.permits = permits;
    }
  }

  /**
   * @param nanoClock the clock handed to the limiter as {@code nowNanos}, for example {@code
   *     System::nanoTime}
   * @param scheduler runs retries and timeouts; not shut down by {@link #close()}
   */
  public WaitingRateLimiter(
      RateLimiter limiter,
      WaitingRateLimiterOptions options,
      LongSupplier nanoClock,
      ScheduledExecutorService scheduler) {
    this.limiter = Objects.requireNonNull(limiter, "limiter");
    this.options = Objects.requireNonNull(options, "options");
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
  }

  /** A waiting limiter whose {@code nowNanos} are the epoch nanoseconds of {@code clock}. */
  public static WaitingRateLimiter withInstantSource(
      RateLimiter limiter,
      WaitingRateLimiterOptions options,
      InstantSource clock,
      ScheduledExecutorService scheduler) {
    Objects.requireNonNull(clock, "clock");
    return new WaitingRateLimiter(limiter, options, () -> epochNanos(clock.instant()), scheduler);
  }

  private static long epochNanos(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
  }

  /**
   * Waits up to {@code timeout} for {@code permits}.
   *
   * @return an acquired lease, or a refused one (queue full, evicted, timed out, closed)
   * @throws InterruptedException if interrupted while waiting; the request is withdrawn
   * @throws IllegalArgumentException if {@code permits} is negative or above the limiter's limit
   */
  public RateLimitLease acquire(int permits, Duration timeout) throws InterruptedException {
    CompletableFuture<RateLimitLease> future = acquireAsync(permits, timeout);
    try {
      return future.get();
    } catch (InterruptedException e) {
      if (!future.cancel(false)) {
        future.join().close();
      }
      throw e;
    } catch (ExecutionException e) {
      throw new IllegalStateException("waiting for permits failed", e.getCause());
    }
  }

  /**
   * Requests {@code permits}, waiting as long as it takes; the future completes with an acquired
   * lease, or with a refused one when the queue cannot take the request, it is evicted or the
   * limiter is closed.
   *
   * @throws IllegalArgumentException if {@code permits} is negative or above the limiter's limit
   */
  public CompletableFuture<RateLimitLease> acquireAsync(int permits) {
    return enqueue(permits, null);
  }

  /** As {@link #acquireAsync(int)}, completing with a refused lease after {@code timeout}. */
  public CompletableFuture<RateLimitLease> acquireAsync(int permits, Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("timeout must not be negative, was " + timeout);
    }
    return enqueue(permits, timeout);
  }

  private CompletableFuture<RateLimitLease> enqueue(int permits, Duration timeout) {
    limiter.probe(permits, nanoClock.getAsLong()); // validates permits against the limiter
    List<Runnable> completions = new ArrayList<>();
    Waiter waiter = new Waiter(permits);
    lock.lock();
    try {
      if (closed) {
        return CompletableFuture.completedFuture(
            RateLimitLease.rejected(permits, "the waiting limiter is closed"));
      }
      RateLimitLease first = null;
      if (queue.isEmpty() || options.queueOrder() == QueueOrder.NEWEST_FIRST) {
        first = limiter.tryAcquire(permits, nanoClock.getAsLong());
        if (first.isAcquired()) {
          return CompletableFuture.completedFuture(track(first));
        }
      }
      if (permits > options.queueLimit()) {
        return CompletableFuture.completedFuture(
            refused(
                first,
                permits,
                permits + " permits exceed the queue limit of " + options.queueLimit()));
      }
      if (queuedPermits + permits > options.queueLimit()) {
        if (options.queueOrder() == QueueOrder.OLDEST_FIRST) {
          return CompletableFuture.completedFuture(
              refused(
                  first,
                  permits,
                  "wait queue full: "
                      + queuedPermits
                      + " of "
                      + options.queueLimit()
                      + " permits queued, "
                      + permits
                      + " requested"));
        }
        while (queuedPermits + permits > options.queueLimit()) {
          Waiter oldest = queue.pollFirst();
          queuedPermits -= oldest.permits;
          completions.add(
              () ->
                  oldest.future.complete(
                      RateLimitLease.rejected(
                          oldest.permits, "evicted from the wait queue by a newer request")));
        }
      }
      queue.addLast(waiter);
      queuedPermits += permits;
      drainLocked(completions);
    } finally {
      lock.unlock();
    }
    completions.forEach(Runnable::run);
    if (timeout != null && !waiter.future.isDone()) {
      ScheduledFuture<?> timer =
          scheduler.schedule(
              () -> expire(waiter, timeout), timeout.toNanos(), TimeUnit.NANOSECONDS);
      waiter.future.whenComplete((lease, error) -> timer.cancel(false));
    }
    waiter.future.whenComplete(
        (lease, error) -> {
          if (waiter.future.isCancelled()) {
            withdraw(waiter);
          }
        });
    return waiter.future;
  }

  private static RateLimitLease refused(RateLimitLease attempt, int permits, String reason) {
    if (attempt != null && attempt.retryAfterNanos().isPresent()) {
      return RateLimitLease.rejected(permits, attempt.retryAfterNanos().getAsLong(), reason);
    }
    return RateLimitLease.rejected(permits, reason);
  }

  /** Serves waiters in queue order until one is refused, then schedules the next attempt. */
  private void drainLocked(List<Runnable> completions) {
    long now = nanoClock.getAsLong();
    while (!queue.isEmpty()) {
      boolean oldestFirst = options.queueOrder() == QueueOrder.OLDEST_FIRST;
      Waiter next = oldestFirst ? queue.peekFirst() : queue.peekLast();
      if (next.future.isDone()) {
        remove(next);
        continue;
      }
      RateLimitLease lease = limiter.tryAcquire(next.permits, now);
      if (!lease.isAcquired()) {
        long delay = lease.retryAfterNanos().orElse(options.pollIntervalNanos());
        scheduleLocked(Math.max(1, delay));
        return;
      }
      remove(next);
      RateLimitLease tracked = track(lease);
      completions.add(
          () -> {
            if (!next.future.complete(tracked)) {
              tracked.close();
            }
          });
    }
  }

  private void remove(Waiter waiter) {
    if (queue.remove(waiter)) {
      queuedPermits -= waiter.permits;
    }
  }

  private void scheduleLocked(long delayNanos) {
    if (closed) {
      return;
    }
    if (pendingDrain != null && !pendingDrain.isDone()) {
      if (pendingDrain.getDelay(TimeUnit.NANOSECONDS) <= delayNanos) {
        return;
      }
      pendingDrain.cancel(false);
    }
    pendingDrain = scheduler.schedule(this::drain, delayNanos, TimeUnit.NANOSECONDS);
  }

  /** Runs on the scheduler: a retry that was due, or a nudge after a release. */
  private void drain() {
    List<Runnable> completions = new ArrayList<>();
    lock.lock();
    try {
      if (pendingDrain != null && pendingDrain.getDelay(TimeUnit.NANOSECONDS) <= 0) {
        pendingDrain = null; // this is (or replaces) the due retry; let drainLocked plan the next
      }
      if (!closed) {
        drainLocked(completions);
      }
    } finally {
      lock.unlock();
    }
    completions.forEach(Runnable::run);
  }

  /** Wraps a granted lease so that closing it also lets the queue move on. */
  private RateLimitLease track(RateLimitLease lease) {
    return RateLimitLease.acquired(
        lease.permits(),
        () -> {
          lease.close();
          nudge();
        });
  }

  /**
   * Lets the queue move on now: for permits given back outside this waiting limiter (a lease the
   * underlying limiter handed out directly).
   */
  public void nudge() {
    if (hasWaiters()) {
      try {
        scheduler.execute(this::drain);
      } catch (RejectedExecutionException e) {
        // the scheduler is shut down: nobody is left to serve the queue
      }
    }
  }

  private boolean hasWaiters() {
    lock.lock();
    try {
      return !queue.isEmpty();
    } finally {
      lock.unlock();
    }
  }

  private void withdraw(Waiter waiter) {
    List<Runnable> completions = new ArrayList<>();
    lock.lock();
    try {
      boolean wasQueued = queue.contains(waiter);
      remove(waiter);
      if (wasQueued && !closed) {
        drainLocked(completions); // the next waiter in line may fit now
      }
    } finally {
      lock.unlock();
    }
    completions.forEach(Runnable::run);
  }

  private void expire(Waiter waiter, Duration timeout) {
    boolean wasQueued;
    List<Runnable> completions = new ArrayList<>();
    lock.lock();
    try {
      wasQueued = queue.contains(waiter);
      remove(waiter);
      if (wasQueued && !closed) {
        drainLocked(completions);
      }
    } finally {
      lock.unlock();
    }
    if (wasQueued) {
      waiter.future.complete(
          RateLimitLease.rejected(
              waiter.permits, "timed out after " + timeout + " waiting for permits"));
    }
    completions.forEach(Runnable::run);
  }

  /** The permits waiting now. */
  public int queuedPermits() {
    lock.lock();
    try {
      return queuedPermits;
    } finally {
      lock.unlock();
    }
  }

  /** The requests waiting now. */
  public int queueLength() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Refuses every waiter and every later request; the underlying limiter and the scheduler stay
   * untouched, and leases already handed out stay valid.
   */
  @Override
  public void close() {
    List<Waiter> dropped;
    lock.lock();
    try {
      closed = true;
      dropped = new ArrayList<>(queue);
      queue.clear();
      queuedPermits = 0;
      if (pendingDrain != null) {
        pendingDrain.cancel(false);
        pendingDrain = null;
      }
    } finally {
      lock.unlock();
    }
    dropped.forEach(
        w ->
            w.future.complete(RateLimitLease.rejected(w.permits, "the waiting limiter is closed")));
  }
}
