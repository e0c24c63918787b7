package io.taskgate.engine.throttle.ratelimit;

import io.taskgate.api.Handler;
import io.taskgate.api.RateLimitPolicy;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.TaskContext;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.core.task.RetryPolicy;
import io.taskgate.engine.RecordingEvent;
import io.taskgate.engine.budget.GateSettings;
import io.taskgate.engine.budget.InMemoryKeyedRateLimiter;
import io.taskgate.engine.budget.RatePolicies;
import io.taskgate.engine.handler.GateSpec;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.throttle.ThrottledAttempt;
import io.taskgate.engine.time.ManualTicker;
import io.taskgate.engine.time.SettableClock;
import io.taskgate.store.MemoryThrottlerStore;
import io.taskgate.store.StoredTask;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * A {@link RateLimitGate} wired by hand with its real parts (an in-memory limiter, the parking lot,
 * the spacing guard, events, pacing log, key selector) and clocks a test moves: no container.
 */
public final class GateFixture {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  /** A task keyed by its tenant, of {@code messages} units of its budget. */
  record Mail(String tenant, int messages) implements RateLimitedTask {
    Mail(String tenant) {
      this(tenant, 1);
    }

    @Override
    public String rateLimitKey() {
      return tenant;
    }

    @Override
    public int rateLimitCost() {
      return messages;
    }
  }

  static final class MailHandler implements Handler<Mail> {
    @Override
    public void handle(Mail task, TaskContext context) {}
  }

  final SettableClock clock = new SettableClock(T0);
  final ManualTicker ticker = new ManualTicker();
  final RateLimitScope scope;
  final HandlerInfo handler;
  final GateSettings settings;
  final KeyedRateLimiter limiter;
  final RatePolicies policies;
  final io.taskgate.engine.cluster.Instances instances = new io.taskgate.engine.cluster.Instances();
  final ParkingLot parkingLot;
  final RateLimitEvents events;
  final RecordingEvent<io.taskgate.api.RateLimitDeferred> deferred = new RecordingEvent<>();
  final RecordingEvent<io.taskgate.api.RateLimitRejected> rejected = new RecordingEvent<>();
  final RateLimitGate gate;
  final ParkingNotes notes = new ParkingNotes(null, null, true); // notes on: counted, never written
  final io.taskgate.engine.event.TaskHistory history = new io.taskgate.engine.event.TaskHistory();
  final io.taskgate.engine.event.EngineEvents channel = new io.taskgate.engine.event.EngineEvents();
  final PacingLog pacing = new PacingLog(10);
  final io.taskgate.store.ThrottlerStore policyStore = new MemoryThrottlerStore();
  final PushBacks pushBacks = new PushBacks();
  final SavedBudgets saved = new SavedBudgets();
  final RateLimitKeySelector keys;
  final StartSpacingGuard spacing;

  /**
   * @param policy the task type's policy
   * @param maxParked the parking lot's cap
   * @param claimAhead how long before its slot a parked task is claimed
   */
  GateFixture(RateLimitPolicy policy, int maxParked, Duration claimAhead) {
    this(policy, maxParked, claimAhead, new InMemoryKeyedRateLimiter(1_000));
  }

  GateFixture(
      RateLimitPolicy policy, int maxParked, Duration claimAhead, KeyedRateLimiter limiter) {
    scope = new RateLimitScope(Mail.class.getName(), policy);
    handler =
        new HandlerInfo(
            Mail.class,
            MailHandler.class,
            "default",
            RetryPolicy.none(),
            Optional.empty(),
            Optional.of(
                new GateSpec(scope, GateSpec.KeySource.TASK, GateSpec.PolicySource.ANNOTATION)));
    settings = GateSettings.of(new GateSettings.Values(maxParked, 1_000, 256, true, claimAhead));
    this.limiter = limiter;
    policies = policies(clock, policyStore);
    parkingLot = new ParkingLot(limiter, settings, new TaskQueues(), null, ticker);
    spacing = new StartSpacingGuard(settings, null);
    channel.subscribe(io.taskgate.engine.event.Counted.class, history::count);
    channel.subscribe(io.taskgate.api.RateLimitDeferred.class, deferred::fire);
    channel.subscribe(io.taskgate.api.RateLimitRejected.class, rejected::fire);
    events = new RateLimitEvents(settings, clock, channel, ticker);
    keys = new RateLimitKeySelector(settings, ticker, null);
    KeyStarts starts = new KeyStarts(spacing, pacing, clock, saved);
    KeyPushBacks keyPushBacks = new KeyPushBacks(limiter, pushBacks);
    gate =
        new RateLimitGate(
            policies,
            limiter,
            parkingLot,
            spacing,
            events,
            pacing,
            settings,
            keys,
            instances,
            notes,
            starts,
            keyPushBacks);
  }

  /** The rate limit as a kind of throttle, over this fixture's parts. */
  RateLimitProvider provider() {
    return new RateLimitProvider(gate, parkingLot, settings, keys, policies, limiter, saved);
  }

  /**
   * A gate over {@code limiter}, wired as above (a task parked until its slot, not claimed ahead),
   * for tests that chain it with other throttles: it takes its policy from each attempt's handler.
   */
  public static RateLimitGate gateOver(KeyedRateLimiter limiter) {
    return new GateFixture(
            RateLimitPolicy.of(1, Duration.ofSeconds(1)), 10_000, Duration.ZERO, limiter)
        .gate;
  }

  /**
   * The fixture's {@link SavedBudgets} wired, as CDI would, to save into and restore from {@code
   * store} as {@code instances}' instance, with the budgets local; its timers are not started
   * (tests call {@code save()} themselves).
   */
  SavedBudgets savingIn(
      io.taskgate.store.BudgetStore store, io.taskgate.engine.cluster.Instances instances) {
    saved.store = store;
    saved.limiter = limiter;
    saved.spacing = spacing;
    saved.policies = policies;
    saved.instances = instances;
    saved.grid =
        io.taskgate.engine.cluster.grid.GridState.of(
            io.taskgate.engine.cluster.grid.GridSettings.read(key -> Optional.empty()));
    saved.clock = clock;
    return saved;
  }

  /** The gate's reads for the views, over the parts given. */
  public static GateReads reads(
      ParkingLot parkingLot,
      GateSettings settings,
      RatePolicies policies,
      PacingLog pacing,
      PushBacks pushBacks) {
    return new GateReads(parkingLot, settings, policies, pacing, pushBacks, null);
  }

  public static RatePolicies policies(java.time.InstantSource clock) {
    return policies(clock, new MemoryThrottlerStore());
  }

  /** The run-time rate-limit changes in {@code store}. */
  public static RatePolicies policies(
      java.time.InstantSource clock, io.taskgate.store.ThrottlerStore store) {
    return RatePolicies.of(store, clock);
  }

  /** A first attempt of a new task of {@code tenant}, due now. */
  ThrottledAttempt attempt(String tenant) {
    return attempt(UUID.randomUUID(), tenant, null);
  }

  /** A first attempt of a new task of {@code tenant} costing {@code messages} units, due now. */
  ThrottledAttempt attempt(String tenant, int messages) {
    ThrottledAttempt one = attempt(UUID.randomUUID(), tenant, null);
    return new ThrottledAttempt(one.task(), handler, new Mail(tenant, messages));
  }

  /** An attempt of task {@code id} of {@code tenant}, recurring by {@code recurrence} (or null). */
  ThrottledAttempt attempt(UUID id, String tenant, String recurrence) {
    StoredTask task =
        StoredTask.queued(
            id,
            scope.name(),
            "{\"tenant\":\"" + tenant + "\"}",
            "default",
            null,
            clock.instant(),
            recurrence,
            clock.instant());
    return new ThrottledAttempt(task, handler, new Mail(tenant));
  }
}
