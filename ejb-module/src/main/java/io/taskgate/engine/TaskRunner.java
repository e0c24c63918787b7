package io.taskgate.engine;

import io.taskgate.api.Handler;
import io.taskgate.api.RateLimitPolicy;
import io.taskgate.api.RateLimitRejectedException;
import io.taskgate.api.Recurrence;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskStatus;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.core.ratelimit.StartSpacing;
import io.taskgate.core.task.Occurrences;
import io.taskgate.store.StoreWait;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskStore;
import io.taskgate.store.TaskWrite;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.spi.CreationalContext;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Type;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs one attempt of one stored task on the calling worker: claims it (QUEUED → IN_PROGRESS, a
 * compare-and-set, so a task never runs twice at once), calls its handler, and records the outcome:
 * COMPLETED, the next occurrence of a recurring task, a retry after the policy's backoff, or
 * FAILED. A task whose handler or payload cannot be found fails alone.
 */
@ApplicationScoped
public class TaskRunner {
  private static final Logger LOG = Logger.getLogger(TaskRunner.class.getName());

  @Inject TaskStore store;
  @Inject HandlerRegistry registry;
  @Inject Payloads payloads;
  @Inject TaskScheduler scheduler;
  @Inject InstantSource clock;
  @Inject BeanManager beanManager;
  @Inject KeyedRateLimiter limiter;
  @Inject RateLimitKeySelector keys;
  @Inject RateLimitEvents events;
  @Inject GateSettings gateSettings;
  @Inject TaskQueues queues;
  @Inject PacingLog pacing;

  private final LogThrottle parkingLotFull =
      new LogThrottle(Duration.ofMinutes(1), System::nanoTime);

  private final SplittableRandom random = new SplittableRandom();

  /**
   * Tasks as the dispatcher has just stored them, so that their first attempt need not read them
   * back. Only a hint: the claim is a compare-and-set on the version, so a task changed since (new
   * payload, cancelled) fails the claim and is read again.
   */
  private final Map<UUID, StoredTask> justStored = new ConcurrentHashMap<>();

  /** Tasks waiting for their rate-limit slot on a timer: where their reservation is. */
  private final Map<UUID, Parked> parked = new ConcurrentHashMap<>();

  /**
   * A parked task's reservation.
   *
   * @param scope the budgets of its type
   * @param key its throttling key
   * @param slot when it may run
   * @param task the task as stored when it was parked (or given a new payload since), so that
   *     redeeming it needs no read; a hint only, since the claim is a compare-and-set
   */
  public record Parked(RateLimitScope scope, String key, Instant slot, StoredTask task) {}

  /**
   * Tasks claimed on this instance whose outcome is not stored yet: the worker thread and when it
   * claimed them, so that a second delivery of one of them is re-parked rather than dropped.
   */
  private final Map<UUID, Executing> executing = new ConcurrentHashMap<>();

  private record Executing(Thread worker, long sinceNanos) {}

  /**
   * Rate-limited tasks claimed shortly before their reserved slot ({@code
   * taskgate.rate-limit.claim-ahead}): their claim is committed, and they wait on the scheduler's
   * timeline to start at the slot, so that the start waits for no database. They stay in {@link
   * #parked} until they start, and a cancel can still take one back ({@link #cancelClaimed}).
   */
  private final Map<UUID, Ready> claimedAhead = new ConcurrentHashMap<>();

  private volatile StartSpacing spacing; // made on first use, from the gate's settings

  private final AtomicLong spacedStarts = new AtomicLong();

  /**
   * A start held back for spacing is redeemed this much after it conforms: the timeline fires by
   * the monotonic clock, the check reads the wall clock.
   */
  static final long SPACING_SLACK_NANOS = 200_000;

  /**
   * A claimed task waiting on the timeline to start: as the claim stored it, what it runs with, and
   * whether it waits because its start was held for spacing ({@link #spacedOut}) rather than for
   * its slot.
   */
  private record Ready(StoredTask running, Claim claim, boolean held) {}

  /**
   * Tasks whose claim for their slot is being committed, until the runner has put each where it
   * belongs ({@link #claimedAhead}, or started): their row may already read IN_PROGRESS, and a
   * cancel waits for this before it looks.
   */
  private final Map<UUID, CountDownLatch> claiming = new ConcurrentHashMap<>();

  /** How long a cancel waits at most for a claim being committed (the longest claim-ahead). */
  static final Duration CLAIMING_WAIT = GateSettings.MAX_CLAIM_AHEAD;

  /**
   * A slot this close beyond the claim-ahead lead still counts as within it: the timeline fires an
   * early redemption by the monotonic clock, the gate reads the wall clock.
   */
  static final Duration CLAIM_AHEAD_SLACK = Duration.ofMillis(2);

  /** A delivery of a task that runs here already is re-parked this long, at least. */
  static final Duration REDELIVERY_DELAY_MIN = Duration.ofMillis(100);

  /** ... and at most this long (the delay grows with how long the task has been running). */
  static final Duration REDELIVERY_DELAY_MAX = Duration.ofSeconds(5);

  /** Runs the task's attempt, then hands it back to the scheduler if it has more to do. */
  public void run(UUID taskId) {
    runAll(List.of(taskId));
  }

  /**
   * Runs one attempt of each task, one after the other on the calling worker, then hands each back
   * to the scheduler if it has more to do. The claims of the tasks are committed together, and so
   * are the outcomes of attempts that end within {@value #OUTCOME_BATCH_MILLIS} ms of each other,
   * so a batch of short tasks costs two commits instead of two per task. An outcome is always
   * stored before its {@code onCompleted} callback runs.
   */
  public void runAll(List<UUID> taskIds) {
    runAll(taskIds, null);
  }

  /**
   * {@link #runAll(List)} for a worker of a queue: while it waits for the store to commit its
   * claims or outcomes, it starts the tasks that come to the queue's start lane meanwhile (tasks
   * claimed ahead whose slot has come, of handlers that return quickly), so that a commit held up
   * by the database holds up no start.
   */
  void runAll(List<UUID> taskIds, TaskQueues.StartLane starts) {
    Helping helping = starts == null ? null : new Helping(starts);
    List<Outcome> outcomes = new ArrayList<>(taskIds.size());
    Set<UUID> open = new HashSet<>(taskIds);
    Set<UUID> waiting = new HashSet<>(0); // claimed ahead of their slot here: not done executing
    try {
      Thread worker = Thread.currentThread();
      long oldest = System.nanoTime(); // of the outcomes not stored yet
      // tasks claimed ahead whose slot has come start first, before anything waits for the store
      List<UUID> toClaim = new ArrayList<>(taskIds.size());
      for (UUID id : taskIds) {
        Ready ready = claimedAhead.remove(id);
        if (ready == null) {
          toClaim.add(id);
          continue;
        }
        executing.put(id, new Executing(worker, System.nanoTime()));
        unparked(id);
        oldest = finishIfOld(outcomes, open, oldest, helping);
        Outcome outcome = execute(ready.running(), ready.claim(), ready.held());
        if (outcome == null) { // held for spacing: it waits on the timeline
          waiting.add(id);
          open.remove(id);
          continue;
        }
        outcomes.add(outcome);
      }
      List<Claim> claims = new ArrayList<>(toClaim.size());
      Map<UUID, StoredTask> read = readUnknown(toClaim);
      Instant now = clock.instant();
      long gatedAt = System.nanoTime();
      for (UUID id : toClaim) {
        Claim claim = prepare(id, now, outcomes, read);
        if (claim != null) {
          claims.add(claim);
        }
      }
      if (!claims.isEmpty() && !outcomes.isEmpty()) {
        // park (hand their timers over) and store what the ready tasks did before the claims
        finish(outcomes, open, helping);
      }
      CountDownLatch settled = claimingForSlots(claims);
      List<StoredTask> claimed;
      try {
        claimed = claim(claims, outcomes, helping);
        startingAfter(claims, System.nanoTime() - gatedAt);
        placeClaimed(claims, claimed, worker, waiting);
        open.removeAll(waiting);
      } finally {
        settled(claims, settled);
      }
      oldest = System.nanoTime();
      for (int i = 0; i < claims.size(); i++) {
        StoredTask running = claimed.get(i);
        if (running == null) {
          continue;
        }
        oldest = finishIfOld(outcomes, open, oldest, helping);
        Outcome outcome = execute(running, claims.get(i), false);
        if (outcome == null) { // held for spacing: it waits on the timeline
          waiting.add(running.id());
          open.remove(running.id());
          continue;
        }
        outcomes.add(outcome);
      }
    } finally {
      finish(outcomes, open, helping);
      if (helping != null) {
        helping.finishAll();
      }
      open.forEach(scheduler::letGo); // left without an outcome: the sweep finds them
      for (UUID id : taskIds) {
        if (!waiting.contains(id)) {
          doneExecuting(id);
        }
      }
    }
  }

  /**
   * Marks the tasks about to be claimed for their slot as {@link #claiming}; returns the latch that
   * {@link #settled} opens, or null if there are none.
   */
  private CountDownLatch claimingForSlots(List<Claim> claims) {
    CountDownLatch latch = null;
    for (Claim claim : claims) {
      if (claim.startAt() != null) {
        if (latch == null) {
          latch = new CountDownLatch(1);
        }
        claiming.put(claim.queued().id(), latch);
      }
    }
    return latch;
  }

  /** The claims of {@link #claimingForSlots} are committed (or failed) and placed. */
  private void settled(List<Claim> claims, CountDownLatch latch) {
    if (latch == null) {
      return;
    }
    for (Claim claim : claims) {
      if (claim.startAt() != null) {
        claiming.remove(claim.queued().id(), latch);
      }
    }
    latch.countDown();
  }

  /**
   * Marks the claimed tasks as executing here; those claimed for a slot still ahead wait for it on
   * the timeline ({@link #waitOnTimeline}) and are added to {@code waiting}, and their entry in
   * {@code claimed} is cleared: what is left starts now.
   */
  private void placeClaimed(
      List<Claim> claims, List<StoredTask> claimed, Thread worker, Set<UUID> waiting) {
    Instant claimedAt = clock.instant();
    for (int i = 0; i < claims.size(); i++) {
      StoredTask running = claimed.get(i);
      if (running == null) {
        continue;
      }
      executing.put(running.id(), new Executing(worker, System.nanoTime()));
      Instant startAt = claims.get(i).startAt();
      if (startAt == null) {
        continue;
      }
      // claimed for its slot: the slot is this task's now, nothing redeems it again
      Parked waited = parked.get(running.id());
      if (waited != null) {
        release(waited.scope(), waited.key(), running.id());
      }
      if (startAt.isAfter(claimedAt)) {
        waiting.add(running.id());
        waitOnTimeline(running, claims.get(i), startAt, false);
        claimed.set(i, null);
      } else {
        unparked(running.id()); // the claim took longer than the lead: it starts now
      }
    }
  }

  /** Stores the outcomes gathered so far if the oldest is {@value #OUTCOME_BATCH_MILLIS} ms old. */
  private long finishIfOld(List<Outcome> outcomes, Set<UUID> open, long oldest, Helping helping) {
    if (System.nanoTime() - oldest < OUTCOME_BATCH_NANOS) {
      return oldest;
    }
    finish(outcomes, open, helping);
    return System.nanoTime();
  }

  /**
   * Whether a claimed task of a rate-limited key must wait before it starts, because starting now
   * would bunch the key's starts closer than its policy allows (an earlier start of the key was
   * late: {@link StartSpacing}); if so, it waits on the timeline like a task claimed ahead of its
   * slot, holding no worker, and is checked again then.
   */
  private boolean spacedOut(StoredTask running, Claim claim, boolean held) {
    if (claim.key() == null) {
      return false;
    }
    Instant now = clock.instant();
    long wait =
        spacing().tryStart(claim.scope(), claim.key(), claim.policy(), EpochNanos.of(now), held);
    if (wait == 0) {
      return false;
    }
    Instant at = now.plusNanos(wait + SPACING_SLACK_NANOS);
    spacedStarts.incrementAndGet();
    LOG.fine(
        () ->
            "Task "
                + running.id()
                + " of key "
                + claim.key()
                + " waits until "
                + at
                + " so that its start keeps the policy's spacing after a late start");
    waitOnTimeline(running, claim, at, true);
    return true;
  }

  /**
   * Locks, by hash of (scope, key), held by a gated task's worker from its spacing check until its
   * handler is entered ({@code onStarted}, the handler interceptor's few instructions: {@link
   * #HANDLER_ENTERED}): so the check and the start are one step for the key's other starts. Another
   * key waits on one only if it shares the stripe and the holder is descheduled right then.
   */
  private final ReentrantLock[] startWindows = newLocks(256);

  private static ReentrantLock[] newLocks(int count) {
    ReentrantLock[] locks = new ReentrantLock[count];
    for (int i = 0; i < count; i++) {
      locks[i] = new ReentrantLock();
    }
    return locks;
  }

  private ReentrantLock startWindow(Claim claim) {
    int hash = 31 * claim.scope().hashCode() + claim.key().hashCode();
    return startWindows[(hash ^ (hash >>> 16)) & (startWindows.length - 1)];
  }

  /** Starts held back so far to keep a key's spacing after a late start ({@link #spacedOut}). */
  public long spacedStarts() {
    return spacedStarts.get();
  }

  private final AtomicLong startsWhileWaiting = new AtomicLong();

  /** Tasks started so far by a worker waiting for the store to commit its own writes. */
  public long startsWhileWaiting() {
    return startsWhileWaiting.get();
  }

  /**
   * The handler of a gated task is called now: its key's spacing counts the start from now if that
   * is later than when it was checked ({@link StartSpacing#started}).
   */
  private void startedNow(Claim claim) {
    if (claim.key() != null) {
      spacing().started(claim.scope(), claim.key(), claim.policy(), EpochNanos.of(clock.instant()));
    }
  }

  /**
   * Set on a worker's thread between a gated task's spacing check and its handler's call: counts
   * the start once more ({@link #startedNow}, which only ever moves it later) and opens the key's
   * start window. {@link TaskHandlerInterceptor} runs it right before the handler's own code, so
   * that a worker stalled between the check and the handler (descheduled, or on code that runs for
   * the first time: the pacing benchmark saw 4–5 ms) keeps the key's other starts waiting instead
   * of letting them start too close to its own, late one.
   */
  static final ThreadLocal<Runnable> HANDLER_ENTERED = new ThreadLocal<>();

  /** Runs and clears {@link #HANDLER_ENTERED}, if set. */
  static void handlerEntered() {
    Runnable entered = HANDLER_ENTERED.get();
    if (entered != null) {
      HANDLER_ENTERED.remove();
      entered.run();
    }
  }

  private StartSpacing spacing() {
    StartSpacing current = spacing;
    if (current == null) {
      synchronized (this) {
        current = spacing;
        if (current == null) {
          current =
              new StartSpacing(gateSettings.maxTrackedKeys(), StartSpacing.DEFAULT_MARGIN_NANOS);
          spacing = current;
        }
      }
    }
    return current;
  }

  /**
   * A claimed task waits on the timeline until {@code at} (its reserved slot, or, {@code held} for
   * spacing, when it may start), then for a worker of its queue's due lane ({@link #runAll} starts
   * it without another claim).
   */
  private void waitOnTimeline(StoredTask running, Claim claim, Instant at, boolean held) {
    UUID id = running.id();
    claimedAhead.put(id, new Ready(running, claim, held));
    scheduler.release(id);
    scheduler.startAt(running.queue(), id, at);
  }

  /**
   * A handler whose calls took less than this, on average, recently, can be started by a worker
   * waiting for a commit ({@link Helping}): what it holds up of that worker's own tasks is about as
   * long.
   */
  static final long QUICK_HANDLER_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  /**
   * Recent time per call of each handler, by handler class (one per task type; a class hashes by
   * identity, where the handler's record would hash its policies on every task): nanoseconds,
   * exponentially weighted.
   */
  private final Map<Class<?>, AtomicLong> handlerNanos = new ConcurrentHashMap<>();

  private void timed(HandlerInfo handler, long nanos) {
    AtomicLong average =
        handlerNanos.computeIfAbsent(handler.beanClass(), c -> new AtomicLong(nanos));
    average.updateAndGet(was -> (was * 7 + nanos) / 8);
  }

  private boolean quick(HandlerInfo handler) {
    AtomicLong average = handlerNanos.get(handler.beanClass());
    return average != null && average.get() < QUICK_HANDLER_NANOS;
  }

  /**
   * What a worker does while the store commits its claims or outcomes: it starts the tasks on its
   * queue's start lane (claimed ahead, their slot has come) whose handler returns quickly, and
   * stores their outcomes once its own batch is done. A task on the lane that is no longer claimed
   * ahead here (cancelled meanwhile) goes to the due lane, where a worker handles it as usual.
   */
  private final class Helping implements StoreWait.Helper {
    private final TaskQueues.StartLane starts;
    private final List<Outcome> outcomes = new ArrayList<>();
    private final Set<UUID> open = new HashSet<>();

    Helping(TaskQueues.StartLane starts) {
      this.starts = starts;
    }

    @Override
    public boolean helpOnce() {
      UUID id =
          starts.pollStart(
              taskId -> {
                Ready ready = claimedAhead.get(taskId);
                return ready == null || quick(ready.claim().handler());
              });
      if (id == null) {
        return false;
      }
      Ready ready = claimedAhead.remove(id);
      if (ready == null) {
        starts.toDueLane(id);
        return true;
      }
      startsWhileWaiting.incrementAndGet();
      executing.put(id, new Executing(Thread.currentThread(), System.nanoTime()));
      unparked(id);
      open.add(id);
      try {
        Outcome outcome = execute(ready.running(), ready.claim(), ready.held());
        if (outcome == null) {
          open.remove(id); // held for spacing: it waits on the timeline
        } else {
          outcomes.add(outcome);
        }
      } catch (RuntimeException e) {
        LOG.log(Level.SEVERE, "Taskgate worker failed on task " + id, e);
      }
      return true;
    }

    @Override
    public void waiting(boolean waiting) {
      starts.waitingForStore(waiting);
    }

    /** Stores the outcomes of the tasks started while waiting (more may start meanwhile). */
    void finishAll() {
      while (!outcomes.isEmpty()) {
        List<Outcome> done = new ArrayList<>(outcomes);
        outcomes.clear();
        finish(done, open, this);
      }
      open.forEach(
          id -> {
            scheduler.letGo(id);
            doneExecuting(id);
          });
      open.clear();
    }
  }

  /**
   * Cancels a task claimed ahead of its rate-limit slot that has not started yet (IN_PROGRESS →
   * CANCELLED, its attempt not counted): it never runs. If its claim is being committed right now,
   * this waits for it first (at most {@link #CLAIMING_WAIT}). Returns false if it is not such a
   * task (it has started, or was not claimed ahead here); if the cancel cannot be stored, the task
   * starts at its slot as planned; if its row changed meanwhile, the claim is no longer this
   * runner's and the task does not start here.
   */
  boolean cancelClaimed(UUID taskId) {
    CountDownLatch pending = claiming.get(taskId);
    if (pending != null) {
      try {
        if (!pending.await(CLAIMING_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
          return false;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    Ready ready = claimedAhead.remove(taskId);
    if (ready == null) {
      return false;
    }
    StoredTask running = ready.running();
    Optional<StoredTask> cancelled;
    try {
      cancelled =
          store.update(
              running,
              running.withStatus(TaskStatus.CANCELLED).withAttempt(running.attempt() - 1),
              clock.instant());
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Task " + taskId + " could not be cancelled; it starts at its slot as planned",
          e);
      claimedAhead.put(taskId, ready); // a delivery meanwhile is re-parked while it is executing
      return false;
    }
    scheduler.cancelTimer(taskId);
    unparked(taskId);
    executing.remove(taskId);
    return cancelled.isPresent();
  }

  /** The dispatcher has stored {@code task}, due now, and is about to hand it to its queue. */
  void justStored(StoredTask task) {
    justStored.put(task.id(), task);
  }

  /**
   * The dispatcher could not hand the task to its queue: the sweep will, and the runner reads it.
   */
  void forget(UUID taskId) {
    justStored.remove(taskId);
  }

  static final long OUTCOME_BATCH_MILLIS = 20;
  private static final long OUTCOME_BATCH_NANOS = OUTCOME_BATCH_MILLIS * 1_000_000;

  /**
   * What the scheduler does next with a task: its queue at {@code due}, or hold it when null; a
   * {@code redemption} (a parked task at its rate-limit slot) goes to the queue's due lane.
   */
  private record FollowUp(String queue, Instant due, boolean redemption) {
    FollowUp(String queue, Instant due) {
      this(queue, due, false);
    }
  }

  /**
   * A task ready to be claimed: as read, with its handler, its payload, the rate-limit slot it was
   * parked until (null if it was not), its rate-limit scope, key and policy (null if it passed no
   * gate), and the slot it starts at once claimed ahead of it (null to start once claimed).
   */
  private record Claim(
      StoredTask queued,
      HandlerInfo handler,
      Task task,
      Instant throttledUntil,
      String scope,
      String key,
      RateLimitPolicy policy,
      Instant startAt) {}

  /**
   * What an attempt ends in: a write ({@code expected} → {@code changed}, or none), what to do once
   * it is stored, and what the scheduler does with the task afterwards.
   */
  private record Outcome(
      UUID taskId,
      StoredTask expected,
      StoredTask changed,
      Instant at,
      Runnable afterStored,
      FollowUp next) {
    boolean writes() {
      return expected != null;
    }
  }

  /**
   * Reads the task (or takes the dispatcher's copy) and checks it can run now; an outcome instead
   * when it cannot (not queued, not due, no handler, unreadable payload).
   */
  private Claim prepare(
      UUID taskId, Instant now, List<Outcome> outcomes, Map<UUID, StoredTask> read) {
    StoredTask hint = justStored.remove(taskId);
    if (hint == null) {
      Parked waiting = parked.get(taskId);
      hint = waiting == null ? null : waiting.task();
    }
    if (hint == null) {
      hint = read.get(taskId);
    }
    StoredTask queued =
        hint != null || read.containsKey(taskId) ? hint : store.find(taskId).orElse(null);
    Executing already = executing.get(taskId);
    if (queued != null
        && queued.status() == TaskStatus.IN_PROGRESS
        && already != null
        && already.worker() != Thread.currentThread()) {
      // delivered again while it runs here (a recovery race): never run twice at once, never
      // dropped; once that attempt is stored, this delivery finds out what is left to do
      Duration delay = redeliveryDelay(System.nanoTime() - already.sinceNanos());
      LOG.fine(
          () -> "Task " + taskId + " was delivered again while it runs; re-parked for " + delay);
      outcomes.add(
          new Outcome(
              taskId, null, null, now, null, new FollowUp(queued.queue(), now.plus(delay))));
      return null;
    }
    if (queued == null || queued.status() != TaskStatus.QUEUED) {
      outcomes.add(new Outcome(taskId, null, null, now, null, null));
      return null;
    }
    if (queued.scheduledAt().isAfter(now)) {
      outcomes.add(
          new Outcome(
              taskId, null, null, now, null, new FollowUp(queued.queue(), queued.scheduledAt())));
      return null;
    }
    HandlerInfo handlerInfo = registry.find(queued.type()).orElse(null);
    if (handlerInfo == null) {
      outcomes.add(
          unrunnable(
              queued, "no handler in this application runs task type " + queued.type(), now));
      return null;
    }
    Task task;
    try {
      task = payloads.read(queued.payload(), handlerInfo.taskType());
    } catch (RuntimeException e) {
      outcomes.add(
          unrunnable(
              queued, "its payload cannot be read as " + queued.type() + ": " + describe(e), now));
      return null;
    }
    Parked waited = parked.get(queued.id());
    GateSpec gate = handlerInfo.gate().orElse(null);
    if (gate != null && queued.attempt() > 0 && !gate.policy().throttleRetries()) {
      gate = null;
    }
    String key = gate == null ? null : keyOf(handlerInfo, task).orElse(null);
    Instant startAt = null;
    if (key != null) {
      Gated gated = gate(queued, handlerInfo, task, gate, key, now);
      if (gated.instead() != null) {
        outcomes.add(gated.instead());
        return null;
      }
      startAt = gated.startAt();
      if (startAt != null) {
        waited = parked.get(queued.id());
      }
    }
    return new Claim(
        queued,
        handlerInfo,
        task,
        waited == null ? null : waited.slot(),
        key == null ? null : gate.scope().name(),
        key,
        key == null ? null : gate.scope().policy(),
        startAt);
  }

  /**
   * The batch's tasks that neither the dispatcher nor the parking lot holds a copy of (tasks that
   * were scheduled for later, recovered or swept), read together: an id mapped to null does not
   * exist. Empty when there are fewer than two to read.
   */
  private Map<UUID, StoredTask> readUnknown(List<UUID> taskIds) {
    List<UUID> unknown = new ArrayList<>();
    for (UUID id : taskIds) {
      if (!justStored.containsKey(id) && !parked.containsKey(id)) {
        unknown.add(id);
      }
    }
    if (unknown.size() < 2) {
      return Map.of();
    }
    Map<UUID, StoredTask> read = new HashMap<>();
    unknown.forEach(id -> read.put(id, null));
    for (StoredTask task : store.findAll(unknown)) {
      read.put(task.id(), task);
    }
    return read;
  }

  /**
   * How long a second delivery of a task that has been running for {@code runningNanos} is
   * re-parked: as long as it has run so far, within {@link #REDELIVERY_DELAY_MIN} and {@link
   * #REDELIVERY_DELAY_MAX}, so that a long attempt is checked on a few times rather than every
   * {@code REDELIVERY_DELAY_MIN}.
   */
  static Duration redeliveryDelay(long runningNanos) {
    long nanos =
        Math.max(
            REDELIVERY_DELAY_MIN.toNanos(), Math.min(runningNanos, REDELIVERY_DELAY_MAX.toNanos()));
    return Duration.ofNanos(nanos);
  }

  /** This worker is done with the task's attempt: its outcome is stored, or it never ran. */
  private void doneExecuting(UUID taskId) {
    executing.computeIfPresent(
        taskId, (id, running) -> running.worker() == Thread.currentThread() ? null : running);
  }

  /**
   * How long after the gate's decision a gated task it lets through starts, recently (nanoseconds,
   * at most {@link #MAX_START_LAG_NANOS}): the time to commit its claim. It follows a longer time
   * at once and a shorter one by an eighth of the difference, and starts at the most, because
   * nothing is known right after a boot and the first claims run on cold code: guessing long costs
   * the key's next slots a few ms once, guessing short costs every later start of the key as much
   * (held for spacing). The gate decides for that moment, and never for less than {@link
   * #MIN_START_LEAD_NANOS} ahead ({@link #startLead}), so that the key's reservations start from
   * when its first tasks really start: decided for the moment of the decision, a burst that starts
   * a few ms later would leave every slot after it a few ms short of the spacing the policy keeps
   * between real starts, and {@link StartSpacing} would hold each of them back by as much.
   */
  private final AtomicLong startLag = new AtomicLong(MAX_START_LAG_NANOS);

  /**
   * The most {@link #startLag} counts (50 ms): beyond it the database is stalling, not the usual
   * claim. The first claims after a boot took 16–44 ms on the pacing benchmark.
   */
  static final long MAX_START_LAG_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  /**
   * The least time ahead the gate decides for (20 ms), whatever the recent claims took. The claims
   * of a burst are slowest when they are needed most: when thousands of a key's tasks come due
   * together and are gated at once, the burst's claim commits among them, several ms slower than
   * the quiet claims before it (2.8–10.6 ms later than the lag learnt, on the pacing benchmark),
   * and every later start of the key would keep that shift. Guessing long costs an idle key's
   * backlog this much once (its slots after the burst come that much later than the policy alone
   * would give); its starts are on time at those slots.
   */
  static final long MIN_START_LEAD_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

  /** How long after the gate's decision it reckons a task let through starts. */
  private long startLead() {
    return Math.max(startLag.get(), MIN_START_LEAD_NANOS);
  }

  /** The claims were committed {@code nanos} after the gate's decision. */
  private void startingAfter(List<Claim> claims, long nanos) {
    for (Claim claim : claims) {
      if (claim.key() != null && claim.startAt() == null) {
        long lag = Math.min(nanos, MAX_START_LAG_NANOS);
        startLag.updateAndGet(was -> lag >= was ? lag : (was * 7 + lag) / 8);
        return;
      }
    }
  }

  /**
   * What the gate decided: what happens {@code instead} of a claim (parked, held, rejected), or a
   * claim now, starting at once ({@code startAt} null) or at the reserved slot {@code startAt}.
   */
  private record Gated(Outcome instead, Instant startAt) {
    static final Gated RUN = new Gated(null, null);
  }

  /**
   * The rate-limit gate: {@link Gated#RUN} when the task may run now (no policy, no key, budget
   * left, its reserved slot has come, or the limiter failed open); a claim now and a start at the
   * slot when its reserved slot is within {@code taskgate.rate-limit.claim-ahead}; otherwise what
   * happens instead: parked until its slot (nothing is written, it stays QUEUED), or rejected for
   * good.
   */
  private Gated gate(
      StoredTask queued,
      HandlerInfo handlerInfo,
      Task task,
      GateSpec gate,
      String key,
      Instant now) {
    RateLimitDecision decision;
    try {
      if (parkingLotFull(gate, key, queued, now)) {
        // held on its queue, taking its place there, until parked tasks make room
        return new Gated(
            new Outcome(queued.id(), null, null, now, null, new FollowUp(queued.queue(), null)),
            null);
      }
      // a task let through starts once its claim is committed, and its start is counted with the
      // spacing's margin: the decision is for then (a parked task coming back for its slot is
      // judged at its slot, so that it never starts before it)
      Instant startsAt =
          parked.containsKey(queued.id())
              ? now
              : now.plusNanos(startLead() + spacing().marginNanos(gate.policy()));
      decision = limiter.reserve(gate.scope(), key, queued.id(), startsAt);
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Taskgate's rate limiter failed for task "
              + queued.id()
              + " (key "
              + key
              + "); it runs unthrottled",
          e);
      return Gated.RUN;
    }
    switch (decision.outcome()) {
      case RUN_NOW:
        unparked(queued.id());
        return Gated.RUN;
      case UNTRACKED:
        unparked(queued.id());
        events.failedOpen(queued.type(), key, limiter.stats().untrackedDecisions());
        return Gated.RUN;
      case DEFERRED:
        Instant slot = EpochNanos.toInstant(decision.slotEpochNanos());
        Instant runUntil = runUntil(queued);
        if (runUntil != null && slot.isAfter(runUntil)) {
          // never fired late: the series ends here, and its reservation is given up
          release(gate.scope(), key, queued.id());
          unparked(queued.id());
          return new Gated(
              skipOccurrence(
                  queued,
                  slot,
                  now,
                  "rate-limit slot "
                      + slot
                      + " of key "
                      + key
                      + " is past the series' runUntil "
                      + runUntil),
              null);
        }
        if (parked.put(queued.id(), new Parked(gate.scope(), key, slot, queued)) == null) {
          // deferred now; a parked task seen again before its slot (claimed ahead, redelivered)
          // is not deferred again
          pacing.reserved(gate.scope().name(), key, now, slot);
          events.deferred(queued.id(), queued.type(), key, slot);
        }
        Duration claimAhead = gateSettings.claimAhead();
        if (!claimAhead.isZero()
            && Duration.between(now, slot).compareTo(claimAhead.plus(CLAIM_AHEAD_SLACK)) <= 0) {
          return new Gated(null, slot);
        }
        return new Gated(
            new Outcome(
                queued.id(), null, null, now, null, new FollowUp(queued.queue(), slot, true)),
            null);
      default:
        unparked(queued.id());
        return new Gated(rejected(queued, handlerInfo, task, gate, key, decision, now), null);
    }
  }

  /**
   * A task the limiter rejected (its slot lies beyond the horizon, or the policy discards): a
   * one-shot task FAILS with a {@link RateLimitRejectedException} handed to {@code onError}; a
   * recurring one skips this occurrence, without counting it as a run, and goes on.
   */
  private Outcome rejected(
      StoredTask queued,
      HandlerInfo handlerInfo,
      Task task,
      GateSpec gate,
      String key,
      RateLimitDecision decision,
      Instant now) {
    RateLimitRejectedException.Reason reason = decision.outcome().rejectionReason();
    Instant slot = EpochNanos.toInstant(decision.slotEpochNanos());
    RateLimitRejectedException rejection =
        new RateLimitRejectedException(
            queued.type(), handlerInfo.beanClass().getName(), key, slot, gate.policy(), reason);
    events.rejected(queued.id(), queued.type(), key, slot, reason);
    String error = describe(rejection);
    if (queued.recurrence() != null) {
      // skip ahead to the key's next free slot rather than re-checking every occurrence before it
      return skipOccurrence(queued, slot, now, error);
    }
    TaskContext context = context(queued, handlerInfo, null);
    return new Outcome(
        queued.id(),
        queued,
        queued.withStatus(TaskStatus.FAILED).withLastError(error),
        now,
        () -> withHandler(queued, handlerInfo, h -> h.onError(task, context, rejection)),
        null);
  }

  /**
   * Skips a recurring task's occurrence without counting it as a run: the series goes on at its
   * first occurrence after {@code notBefore} (or ends, COMPLETED, when there is none), with {@code
   * reason} as its last error.
   */
  private static Outcome skipOccurrence(
      StoredTask queued, Instant notBefore, Instant now, String reason) {
    Instant after = notBefore.isAfter(now) ? notBefore.minusNanos(1) : now;
    Optional<Instant> next =
        Occurrences.next(
            Recurrence.decode(queued.recurrence()), queued.scheduledAt(), after, queued.runs());
    StoredTask skipped =
        next.map(due -> queued.withScheduledAt(due).withAttempt(0).withLastError(reason))
            .orElseGet(() -> queued.withStatus(TaskStatus.COMPLETED).withLastError(reason));
    return new Outcome(
        queued.id(),
        queued,
        skipped,
        now,
        null,
        next.map(due -> new FollowUp(queued.queue(), due)).orElse(null));
  }

  private static Instant runUntil(StoredTask task) {
    return task.recurrence() == null
        ? null
        : Recurrence.decode(task.recurrence()).runUntil().orElse(null);
  }

  private void release(RateLimitScope scope, String key, UUID taskId) {
    try {
      limiter.release(scope, key, taskId);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Taskgate could not release the reservation of task " + taskId, e);
    }
  }

  /** The task's throttling key, asking a handler instance only when the key comes from it. */
  Optional<String> keyOf(HandlerInfo handlerInfo, Task task) {
    if (handlerInfo.gate().orElseThrow().keySource() == GateSpec.KeySource.TASK) {
      return keys.keyOf(handlerInfo, task, () -> null);
    }
    Bean<?> bean = registry.bean(handlerInfo);
    CreationalContext<?> creation = beanManager.createCreationalContext(bean);
    try {
      return keys.keyOf(handlerInfo, task, () -> reference(handlerInfo, bean, creation));
    } finally {
      creation.release();
    }
  }

  /** Runs {@code action} on a handler instance of its own, as a callback (failures logged). */
  private void withHandler(
      StoredTask task, HandlerInfo handlerInfo, Consumer<Handler<Task>> action) {
    Bean<?> bean = registry.bean(handlerInfo);
    CreationalContext<?> creation = beanManager.createCreationalContext(bean);
    try {
      Handler<Task> handler = reference(handlerInfo, bean, creation);
      callback(task, "onError", () -> action.accept(handler));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "The handler of task " + task.id() + " could not be created", e);
    } finally {
      creation.release();
    }
  }

  /**
   * Whether a task that would be parked must wait on its queue instead, because {@code
   * taskgate.rate-limit.max-parked-tasks} tasks are parked already. A task already parked (its slot
   * has come) and a task its key can run at once are never held. The cap is checked without a lock,
   * so concurrent workers may overshoot it by a few.
   */
  private boolean parkingLotFull(GateSpec gate, String key, StoredTask queued, Instant now) {
    if (parked.size() < gateSettings.maxParkedTasks() || parked.containsKey(queued.id())) {
      return false;
    }
    RateLimitDecision peek = limiter.peek(gate.scope(), key, EpochNanos.of(now));
    if (peek.outcome() != RateLimitDecision.Outcome.DEFERRED) {
      return false;
    }
    long held = parkingLotFull.admit("parking");
    if (held >= 0) {
      LOG.warning(
          "Taskgate's parking lot is full ("
              + parked.size()
              + " tasks wait for their rate-limit slot, taskgate.rate-limit.max-parked-tasks = "
              + gateSettings.maxParkedTasks()
              + "): rate-limited tasks wait on their queues until it has room"
              + LogThrottle.heldBack(held));
    }
    return true;
  }

  /** A task left the parking lot: held tasks may take its place. */
  private void unparked(UUID taskId) {
    if (parked.remove(taskId) != null) {
      int room = gateSettings.maxParkedTasks() - parked.size();
      if (room > 0) {
        queues.releaseHeld(room);
      }
    }
  }

  /**
   * Forgets a cancelled task that waits in memory: parked (its reservation is released) or held on
   * its queue. Returns whether it was either.
   */
  public boolean unpark(UUID taskId) {
    Parked was = parked.get(taskId);
    if (was != null) {
      unparked(taskId);
      release(was.scope(), was.key(), taskId);
      return true;
    }
    if (queues.dropHeld(taskId)) {
      scheduler.release(taskId);
      return true;
    }
    return false;
  }

  /**
   * A parked task got a new payload (same task key dispatched again): its redemption uses it.
   * Returns its slot, or null if it is not parked.
   */
  Instant replaced(StoredTask task) {
    Parked now =
        parked.computeIfPresent(
            task.id(), (id, was) -> new Parked(was.scope(), was.key(), was.slot(), task));
    return now == null ? null : now.slot();
  }

  /** The tasks parked until their slot, by id (a copy). */
  public Map<UUID, Parked> parked() {
    return Map.copyOf(parked);
  }

  /** The tasks parked until their slot, as they are now (a live view, no copy). */
  public Collection<Parked> parkedTasks() {
    return Collections.unmodifiableCollection(parked.values());
  }

  /** How many tasks are parked. */
  public int parkedCount() {
    return parked.size();
  }

  /** The parked task with this id, if it is parked. */
  public Optional<Parked> parkedTask(UUID taskId) {
    return Optional.ofNullable(parked.get(taskId));
  }

  @SuppressWarnings("unchecked")
  private Handler<Task> reference(
      HandlerInfo handlerInfo, Bean<?> bean, CreationalContext<?> creation) {
    Type type =
        bean.getTypes().contains(handlerInfo.beanClass()) ? handlerInfo.beanClass() : Object.class;
    return (Handler<Task>) beanManager.getReference(bean, type, creation);
  }

  private static TaskContext context(
      StoredTask task, HandlerInfo handlerInfo, Instant throttledUntil) {
    return new TaskContext(
        task.id(),
        task.type(),
        task.queue(),
        Optional.ofNullable(task.taskKey()),
        task.attempt(),
        handlerInfo.retry().maxAttempts(),
        task.scheduledAt(),
        task.runs(),
        Optional.ofNullable(throttledUntil));
  }

  /**
   * Claims the tasks (QUEUED → IN_PROGRESS) in one commit. Returns each claimed task, or null where
   * the claim was lost (the task changed since it was read: its follow-up is then added).
   */
  private List<StoredTask> claim(List<Claim> claims, List<Outcome> outcomes, Helping helping) {
    if (claims.isEmpty()) {
      return List.of();
    }
    Instant now = clock.instant();
    List<TaskWrite> writes = new ArrayList<>(claims.size());
    for (Claim claim : claims) {
      StoredTask queued = claim.queued();
      writes.add(
          new TaskWrite.Update(
              queued,
              queued.withStatus(TaskStatus.IN_PROGRESS).withAttempt(queued.attempt() + 1),
              now));
    }
    List<Optional<StoredTask>> results = write(writes, helping);
    List<StoredTask> claimed = new ArrayList<>(claims.size());
    for (int i = 0; i < claims.size(); i++) {
      StoredTask running = results.get(i).orElse(null);
      claimed.add(running);
      if (running == null) {
        // Changed since we read it: re-dispatched with a new payload, cancelled, or taken.
        UUID id = claims.get(i).queued().id();
        outcomes.add(
            new Outcome(
                id,
                null,
                null,
                now,
                null,
                store
                    .find(id)
                    .filter(t -> t.status() == TaskStatus.QUEUED)
                    .map(t -> new FollowUp(t.queue(), t.scheduledAt()))
                    .orElse(null)));
      }
    }
    return claimed;
  }

  /** Writes {@code writes} together; while they commit, {@code helping} (if any) starts tasks. */
  private List<Optional<StoredTask>> write(List<TaskWrite> writes, Helping helping) {
    return helping == null
        ? store.writeAll(writes)
        : StoreWait.helping(helping, () -> store.writeAll(writes));
  }

  /**
   * Stores the outcomes gathered so far (together, or one by one if that fails, so that a bad one
   * fails alone), then runs their callbacks and hands their tasks back to the scheduler.
   */
  private void finish(List<Outcome> outcomes, Set<UUID> open, Helping helping) {
    if (outcomes.isEmpty()) {
      return;
    }
    List<Outcome> writing = new ArrayList<>();
    List<TaskWrite> writes = new ArrayList<>();
    for (Outcome outcome : outcomes) {
      if (outcome.writes()) {
        writing.add(outcome);
        writes.add(new TaskWrite.Update(outcome.expected(), outcome.changed(), outcome.at()));
      }
    }
    List<Optional<StoredTask>> stored = null;
    if (!writes.isEmpty()) {
      try {
        stored = write(writes, helping);
      } catch (RuntimeException e) {
        LOG.log(Level.FINE, "Storing " + writes.size() + " outcomes together failed", e);
      }
    }
    for (int i = 0; i < writing.size(); i++) {
      Outcome outcome = writing.get(i);
      boolean recorded;
      try {
        recorded =
            stored != null
                ? stored.get(i).isPresent()
                : store.update(outcome.expected(), outcome.changed(), outcome.at()).isPresent();
      } catch (RuntimeException e) {
        LOG.log(
            Level.SEVERE,
            "Task "
                + outcome.taskId()
                + ": its outcome "
                + outcome.changed().status()
                + " could not be stored",
            e);
        continue;
      }
      if (!recorded) {
        LOG.warning(
            "Task "
                + outcome.taskId()
                + " changed while it ran; its outcome "
                + outcome.changed().status()
                + " was not recorded");
      }
    }
    for (Outcome outcome : outcomes) {
      if (outcome.afterStored() != null) {
        outcome.afterStored().run();
      }
      open.remove(outcome.taskId());
      doneExecuting(outcome.taskId());
      if (outcome.next() != null && outcome.next().due() == null) {
        queues.hold(outcome.next().queue(), outcome.taskId()); // still held by the scheduler
        continue;
      }
      scheduler.release(outcome.taskId());
      if (outcome.next() != null && outcome.next().redemption()) {
        // back at the gate a little before the slot, to be claimed ahead of it
        scheduler.redeemAt(
            outcome.next().queue(),
            outcome.taskId(),
            outcome.next().due().minus(gateSettings.claimAhead()));
      } else if (outcome.next() != null) {
        scheduler.submit(outcome.next().queue(), outcome.taskId(), outcome.next().due());
      }
    }
    outcomes.clear();
  }

  /**
   * Runs the attempt of a claimed task now; null if, at the last moment, its key's spacing holds it
   * back ({@link #spacedOut}: it then waits on the timeline). {@code held}: it was held before.
   */
  private Outcome execute(StoredTask running, Claim claim, boolean held) {
    HandlerInfo handlerInfo = claim.handler();
    Task task = claim.task();
    Instant throttledUntil = claim.throttledUntil();
    TaskContext context = context(running, handlerInfo, throttledUntil);
    Bean<?> bean = registry.bean(handlerInfo);
    CreationalContext<?> creation = beanManager.createCreationalContext(bean);
    try {
      Handler<Task> handler;
      try {
        handler = reference(handlerInfo, bean, creation);
      } catch (RuntimeException e) {
        // No instance, so no callbacks: the attempt fails like any other and follows the policy.
        return failed(
            running,
            handlerInfo,
            NO_CALLBACKS,
            task,
            context,
            new IllegalStateException(
                "handler "
                    + handlerInfo.beanClass().getName()
                    + " could not be created: "
                    + describe(rootCause(e)),
                e),
            clock.instant());
      }
      // checked as late as can be, and, for a gated task, with its key's other starts kept out
      // until the handler is called: a start checked meanwhile could otherwise come too close
      ReentrantLock window = claim.key() == null ? null : startWindow(claim);
      if (window != null) {
        window.lock();
      }
      boolean entering = false;
      try {
        if (spacedOut(running, claim, held)) {
          return null; // the handler instance is let go in finally; a new one runs it later
        }
        if (claim.key() != null) {
          pacing.started(claim.scope(), claim.key(), clock.instant(), claim.throttledUntil());
        }
        callback(running, "onStarted", () -> handler.onStarted(task, context));
        startedNow(claim);
        entering = window != null;
      } finally {
        if (window != null && !entering) {
          window.unlock();
        }
      }
      if (entering) {
        // the window stays shut until the handler is entered (TaskHandlerInterceptor), where the
        // start is counted again: a worker stalled on the way there holds the key's other starts
        HANDLER_ENTERED.set(
            () -> {
              try {
                startedNow(claim);
              } finally {
                window.unlock();
              }
            });
      }
      Throwable failure = null;
      long handling = System.nanoTime();
      try {
        handler.handle(task, context);
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) {
        failure = unwrap(e);
      } finally {
        handlerEntered(); // not intercepted: the window opens only now
      }
      timed(handlerInfo, System.nanoTime() - handling);
      Instant end = clock.instant();
      if (failure == null) {
        return finishRun(
            running,
            TaskStatus.COMPLETED,
            null,
            end,
            () -> callback(running, "onCompleted", () -> handler.onCompleted(task, context)));
      }
      return failed(running, handlerInfo, handler, task, context, failure, end);
    } finally {
      creation.release();
    }
  }

  private Outcome failed(
      StoredTask running,
      HandlerInfo handlerInfo,
      Handler<Task> handler,
      Task task,
      TaskContext context,
      Throwable failure,
      Instant end) {
    String error = describe(failure);
    int attempt = running.attempt();
    if (handlerInfo.retry().retriesAfter(attempt)) {
      Duration delay = handlerInfo.retry().delayAfter(attempt, nextRandom());
      callback(running, "onRetry", () -> handler.onRetry(task, context, attempt, delay, failure));
      Instant due = end.plus(delay);
      return new Outcome(
          running.id(),
          running,
          running.withStatus(TaskStatus.QUEUED).withScheduledAt(due).withLastError(error),
          end,
          null,
          new FollowUp(running.queue(), due));
    }
    LOG.log(
        Level.WARNING,
        "Task " + running.id() + " (" + running.type() + ") failed after attempt " + attempt,
        failure);
    callback(running, "onError", () -> handler.onError(task, context, failure));
    return finishRun(running, TaskStatus.FAILED, error, end, null);
  }

  /**
   * The end of a real execution: a recurring task is queued again at its next occurrence (with a
   * fresh attempt count and {@code error} as its last error), anything else ends in {@code
   * terminal} (keeping the last retry's error when {@code error} is null).
   */
  private Outcome finishRun(
      StoredTask running, TaskStatus terminal, String error, Instant end, Runnable afterStored) {
    long runs = running.runs() + 1;
    Optional<Instant> next = nextOccurrence(running, end, runs);
    StoredTask done =
        next.map(
                due ->
                    running
                        .withStatus(TaskStatus.QUEUED)
                        .withScheduledAt(due)
                        .withAttempt(0)
                        .withLastError(error))
            .orElseGet(
                () ->
                    running
                        .withStatus(terminal)
                        .withLastError(error != null ? error : running.lastError()))
            .withRuns(runs);
    return new Outcome(
        running.id(),
        running,
        done,
        end,
        afterStored,
        next.map(due -> new FollowUp(running.queue(), due)).orElse(null));
  }

  /** The next occurrence of a recurring task after a real execution; empty for one-shot tasks. */
  private Optional<Instant> nextOccurrence(StoredTask running, Instant now, long runs) {
    if (running.recurrence() == null) {
      return Optional.empty();
    }
    Recurrence recurrence = Recurrence.decode(running.recurrence());
    return Occurrences.next(recurrence, running.scheduledAt(), now, runs);
  }

  private static Outcome unrunnable(StoredTask queued, String reason, Instant now) {
    LOG.warning("Task " + queued.id() + " cannot run: " + reason);
    return new Outcome(
        queued.id(),
        queued,
        queued.withStatus(TaskStatus.FAILED).withLastError(reason),
        now,
        null,
        null);
  }

  private void callback(StoredTask task, String name, Runnable callback) {
    try {
      callback.run();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Callback " + name + " of task " + task.id() + " threw; ignored", e);
    }
  }

  private synchronized double nextRandom() {
    return random.nextDouble();
  }

  /** Stands in for a handler that could not be created: it is never asked to handle. */
  private static final Handler<Task> NO_CALLBACKS =
      (task, context) -> {
        throw new IllegalStateException("never called");
      };

  private static Throwable rootCause(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause;
  }

  private static Throwable unwrap(Throwable e) {
    return e instanceof InvocationTargetException ite && ite.getCause() != null
        ? ite.getCause()
        : e;
  }

  static String describe(Throwable e) {
    String text = e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    return text.length() > 2000 ? text.substring(0, 2000) : text;
  }
}
