package io.taskgate.engine.throttle.ratelimit;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.api.RateLimitRejectedException;
import io.taskgate.api.Recurrence;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.engine.budget.GateSettings;
import io.taskgate.engine.budget.RatePolicies;
import io.taskgate.engine.cluster.Instances;
import io.taskgate.engine.handler.GateSpec;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.HandlerInvoker;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.ParkedTask;
import io.taskgate.engine.throttle.Permit;
import io.taskgate.engine.throttle.StartCheck;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.ThrottledAttempt;
import io.taskgate.store.StoredTask;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The keyed rate-limit gate, the {@link Throttle} of a rate-limited task type, passed before a task
 * is claimed: it runs now (no key, budget left, its reserved slot has come, or the limiter failed
 * open), is claimed now to start at its reserved slot when that is within {@code
 * taskgate.rate-limit.claim-ahead}, is parked until its slot in the {@link ParkingLot} (nothing is
 * written, it stays QUEUED), is held on its queue while the parking lot is full, or is rejected for
 * good.
 */
@ApplicationScoped
public class RateLimitGate implements Throttle {
  private static final Logger LOG = Logger.getLogger(RateLimitGate.class.getName());

  /** A slot this close beyond the claim-ahead lead still counts as within it. */
  private static final Duration CLAIM_AHEAD_SLACK = GateTuning.DEFAULT.claimAheadSlack();

  private final RatePolicies policies;
  private final KeyedRateLimiter limiter;
  private final ParkingLot parkingLot;
  private final StartSpacingGuard spacing;
  private final RateLimitEvents events;
  private final PacingLog pacing;
  private final GateSettings gateSettings;
  private final RateLimitKeySelector keys;
  private final Instances instances;
  private final ParkingNotes notes;
  private final KeyStarts starts;
  private final KeyPushBacks pushBacks;

  private final StartLead startLead = new StartLead();

  /** For the CDI proxy. */
  protected RateLimitGate() {
    this(null, null, null, null, null, null, null, null, null, null, null, null);
  }

  @Inject
  RateLimitGate(
      RatePolicies policies,
      KeyedRateLimiter limiter,
      ParkingLot parkingLot,
      StartSpacingGuard spacing,
      RateLimitEvents events,
      PacingLog pacing,
      GateSettings gateSettings,
      RateLimitKeySelector keys,
      Instances instances,
      ParkingNotes notes,
      KeyStarts starts,
      KeyPushBacks pushBacks) {
    this.policies = policies;
    this.limiter = limiter;
    this.parkingLot = parkingLot;
    this.spacing = spacing;
    this.events = events;
    this.pacing = pacing;
    this.gateSettings = gateSettings;
    this.keys = keys;
    this.instances = instances;
    this.notes = notes;
    this.starts = starts;
    this.pushBacks = pushBacks;
  }

  /**
   * The permit of task {@code taskId} the gate let through: its key's scope and key, the slot it
   * was parked until (null if it was not), and how many units of the key's budget it spends.
   */
  record GatePermit(RateLimitScope scope, String key, UUID taskId, Instant heldUntil, int cost)
      implements Permit {
    GatePermit(RateLimitScope scope, String key, UUID taskId, Instant heldUntil) {
      this(scope, key, taskId, heldUntil, 1);
    }

    RateLimitPolicy policy() {
      return scope.policy();
    }
  }

  @Override
  public String name() {
    return "rate-limit";
  }

  @Override
  public int order() {
    return BUDGETS;
  }

  /**
   * A budget spent by time gives nothing back: a slot, once reserved, stays spent ({@link
   * KeyedRateLimiter#release}). Nothing is lost by it: the gate is the last throttle of a chain
   * ({@link Throttle#BUDGETS}), so no other throttle refuses an attempt after the gate spent for
   * it.
   */
  @Override
  public Set<String> release(Permit permit, AttemptEnd end) {
    return Set.of();
  }

  /**
   * A parked task whose slot has come (or is within the claim-ahead lead) was held back by another
   * throttle of its type: it cannot start at its slot, and redeeming the slot whenever the other
   * throttle lets it would start it among the key's next slots, closer to them than the policy
   * allows (with nothing to space them when the budgets are in the data grid). Its reservation is
   * given up as a slot that passed unused: it stays spent, and when the other throttles let the
   * task run it takes the key's next free slot, which is now if the key has budget (the given-up
   * slot was its last and lies an interval back, or its burst covers it).
   */
  @Override
  public void passedOver(ThrottledAttempt attempt, Instant now) {
    UUID id = attempt.task().id();
    ParkedTask parked = parkingLot.get(id);
    if (parked == null
        || parked.slot().isAfter(now.plus(gateSettings.claimAhead()).plus(CLAIM_AHEAD_SLACK))) {
      return;
    }
    parkingLot.left(id);
    parkingLot.release(parked.scope(), parked.key(), id);
  }

  /**
   * The gate's decision: run now (no policy for this attempt, no key, budget left, its reserved
   * slot has come, or the limiter failed open); run at its reserved slot when that is within {@code
   * taskgate.rate-limit.claim-ahead}; park until its slot; hold on its queue while the parking lot
   * is full; skip a recurring task's occurrence whose slot is past its {@code runUntil}; or reject.
   */
  @Override
  public ThrottleDecision acquire(ThrottledAttempt attempt, Instant now) {
    StoredTask queued = attempt.task();
    HandlerInfo handlerInfo = attempt.handler();
    GateSpec gate = handlerInfo.gate().orElse(null);
    if (gate == null || (queued.attempt() > 0 && !gate.policy().throttleRetries())) {
      return ThrottleDecision.Run.now(Permit.NOTHING);
    }
    RateLimitKeySelector.Keyed keyed = keys.keyedOf(handlerInfo, attempt.payload()).orElse(null);
    if (keyed == null) {
      return ThrottleDecision.Run.now(Permit.NOTHING);
    }
    String key = keyed.key();
    int cost = keyed.cost();
    RateLimitScope scope = policies.scopeOf(gate, key);
    if (scope != gate.scope()) {
      gate = new GateSpec(scope, gate.keySource(), gate.policySource()); // changed at run time
    }
    ParkedTask parkedBefore = parkingLot.get(queued.id());
    GatePermit permit =
        new GatePermit(
            gate.scope(),
            key,
            queued.id(),
            parkedBefore == null ? null : parkedBefore.slot(),
            cost);
    if (cost > gate.policy().burst()) {
      parkingLot.left(queued.id());
      return costAboveBurst(queued, handlerInfo, gate, key, cost);
    }
    RateLimitDecision decision;
    try {
      if (parkingLot.full(gate.scope(), key, queued.id(), now)) {
        // held on its queue, taking its place there, until parked tasks make room
        return new ThrottleDecision.HoldOnQueue("the parking lot is full");
      }
      // a task let through starts once its claim is committed, and its start is counted with the
      // spacing's margin: the decision is for then (a parked task coming back for its slot is
      // judged at its slot, so that it never starts before it)
      if (instances.takeAdopted(queued.id())) {
        forgetPassedSlot(gate, key, queued.id(), now);
      }
      Instant startsAt =
          parkedBefore != null
              ? now
              : now.plusNanos(startLead.nanos() + spacing.marginNanos(gate.policy()));
      decision = limiter.reserve(gate.scope(), key, queued.id(), EpochNanos.of(startsAt), cost);
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Taskgate's rate limiter failed for task "
              + queued.id()
              + " (key "
              + key
              + "); it runs unthrottled",
          e);
      return ThrottleDecision.Run.now(permit);
    }
    switch (decision.outcome()) {
      case RUN_NOW:
        parkingLot.left(queued.id());
        return ThrottleDecision.Run.now(permit);
      case UNTRACKED:
        parkingLot.left(queued.id());
        events.failedOpen(queued, key, KeyedRateLimiter.statsOf(limiter).untrackedDecisions());
        return ThrottleDecision.Run.now(permit);
      case DEFERRED:
        return deferred(queued, gate, permit, EpochNanos.toInstant(decision.slotEpochNanos()), now);
      default:
        parkingLot.left(queued.id());
        return rejected(queued, handlerInfo, gate, key, decision);
    }
  }

  /**
   * A task taken over from a dead instance: the slot reserved for it there is kept while it is
   * still to come (or just came), but one that passed longer ago than the policy's interval and
   * burst, while no instance could start it, is given up, so that the task gets a new slot after
   * the key's others instead of starting together with every other task whose slot passed
   * meanwhile.
   */
  private void forgetPassedSlot(GateSpec gate, String key, UUID taskId, Instant now) {
    long reserved = limiter.reservedSlot(gate.scope(), key, taskId);
    RateLimitPolicy policy = gate.policy();
    if (reserved != KeyedRateLimiter.NO_RESERVATION
        && EpochNanos.of(now) - reserved
            > policy.emissionIntervalNanos() + policy.burstToleranceNanos()) {
      limiter.release(gate.scope(), key, taskId);
    }
  }

  private ThrottleDecision deferred(
      StoredTask queued, GateSpec gate, GatePermit permit, Instant slot, Instant now) {
    String key = permit.key();
    Instant runUntil = runUntil(queued);
    if (runUntil != null && slot.isAfter(runUntil)) {
      // never fired late: the series ends here, and its reservation is given up
      parkingLot.release(gate.scope(), key, queued.id());
      parkingLot.left(queued.id());
      return new ThrottleDecision.SkipOccurrence(
          slot,
          "rate-limit slot "
              + slot
              + " of key "
              + key
              + " is past the series' runUntil "
              + runUntil);
    }
    if (parkingLot.park(queued.id(), new ParkedTask(gate.scope(), key, slot, queued))) {
      // deferred now; a parked task seen again before its slot (claimed ahead, redelivered) is not
      // deferred again
      pacing.reserved(gate.scope().name(), key, now, slot);
      events.deferred(queued, key, slot);
      notes.parked(queued, key, slot, gate.policy(), now, permit.cost());
    }
    Duration claimAhead = gateSettings.claimAhead();
    if (!claimAhead.isZero()
        && Duration.between(now, slot).compareTo(claimAhead.plus(CLAIM_AHEAD_SLACK)) <= 0) {
      return new ThrottleDecision.Run(
          new GatePermit(permit.scope(), key, queued.id(), slot, permit.cost()), slot);
    }
    return new ThrottleDecision.ParkUntil(slot);
  }

  /**
   * A task the limiter rejected (its slot lies beyond the horizon, or the policy discards): a
   * one-shot task FAILS with a {@link RateLimitRejectedException} handed to {@code onError}; a
   * recurring one skips ahead to the key's next free slot rather than re-checking every occurrence
   * before it, without counting it as a run.
   */
  private ThrottleDecision rejected(
      StoredTask queued,
      HandlerInfo handlerInfo,
      GateSpec gate,
      String key,
      RateLimitDecision decision) {
    RateLimitRejectedException.Reason reason = decision.outcome().rejectionReason();
    Instant slot = EpochNanos.toInstant(decision.slotEpochNanos());
    RateLimitRejectedException rejection =
        new RateLimitRejectedException(
            queued.type(), handlerInfo.beanClass().getName(), key, slot, gate.policy(), reason);
    events.rejected(queued, key, slot, reason);
    return new ThrottleDecision.Reject(HandlerInvoker.describe(rejection), slot, rejection);
  }

  /**
   * A task that costs more than its key's burst (the policy changed since its dispatch, which
   * refuses such a task): it could never run, and fails as a rejected one does, spending nothing.
   */
  private ThrottleDecision costAboveBurst(
      StoredTask queued, HandlerInfo handlerInfo, GateSpec gate, String key, int cost) {
    RateLimitRejectedException rejection =
        new RateLimitRejectedException(
            queued.type(),
            handlerInfo.beanClass().getName(),
            key,
            null,
            gate.policy(),
            RateLimitRejectedException.Reason.COST_ABOVE_BURST,
            cost);
    events.rejected(queued, key, null, rejection.reason());
    return new ThrottleDecision.Reject(HandlerInvoker.describe(rejection), null, rejection);
  }

  /** The claims of tasks this gate let through were committed {@code nanos} after its decision. */
  @Override
  public void claimsCommitted(long nanos) {
    startLead.claimedAfter(nanos);
  }

  /**
   * The start of a task the gate let through with a key keeps the key's spacing ({@link
   * KeyStarts}).
   */
  @Override
  public StartCheck startOf(Permit permit, UUID taskId) {
    return permit instanceof GatePermit gated ? starts.of(gated, taskId) : StartCheck.NONE;
  }

  /**
   * A task claimed ahead of its slot: the slot is the task's now, and nothing redeems its
   * reservation again; it stays parked (in the views, and for its copy) until it starts.
   */
  @Override
  public void claimedAhead(Permit permit, UUID taskId) {
    ParkedTask waited = parkingLot.get(taskId);
    if (waited != null) {
      parkingLot.release(waited.scope(), waited.key(), taskId);
    }
  }

  /** A task claimed ahead of its slot starts, or is cancelled: it leaves the parking lot. */
  @Override
  public void leftWaiting(Permit permit, UUID taskId) {
    parkingLot.left(taskId);
  }

  /**
   * The upstream of a task with a key pushed back: its key's schedule moves ({@link KeyPushBacks}).
   */
  @Override
  public Instant pushedBack(Permit permit, UUID taskId, Instant until, Instant now, String reason) {
    return permit instanceof GatePermit gated
        ? pushBacks.pushedBack(gated, until, now, reason)
        : null;
  }

  private static Instant runUntil(StoredTask task) {
    return task.recurrence() == null
        ? null
        : Recurrence.decode(task.recurrence()).runUntil().orElse(null);
  }
}
