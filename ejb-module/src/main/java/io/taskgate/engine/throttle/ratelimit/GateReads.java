package io.taskgate.engine.throttle.ratelimit;

import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.engine.budget.GateSettings;
import io.taskgate.engine.budget.RatePolicies;
import io.taskgate.engine.handler.GateSpec;
import io.taskgate.engine.throttle.PacingMark;
import io.taskgate.engine.throttle.ParkedTask;
import io.taskgate.engine.throttle.PushBack;
import io.taskgate.engine.throttle.RateLimitReads;
import io.taskgate.engine.throttle.Restored;
import io.taskgate.store.ParkedSummary;
import io.taskgate.store.ThrottlerStore.RateOverride;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The gate's state for the views, read from the parts that hold it. */
@ApplicationScoped
public class GateReads implements RateLimitReads {
  private final ParkingLot parkingLot;
  private final GateSettings settings;
  private final RatePolicies policies;
  private final PacingLog pacing;
  private final PushBacks pushBacks;
  private final SavedBudgets saved;

  /** For the CDI proxy. */
  protected GateReads() {
    this(null, null, null, null, null, null);
  }

  @Inject
  GateReads(
      ParkingLot parkingLot,
      GateSettings settings,
      RatePolicies policies,
      PacingLog pacing,
      PushBacks pushBacks,
      SavedBudgets saved) {
    this.saved = saved;
    this.parkingLot = parkingLot;
    this.settings = settings;
    this.policies = policies;
    this.pacing = pacing;
    this.pushBacks = pushBacks;
  }

  @Override
  public Collection<ParkedTask> parkedTasks() {
    return parkingLot.parkedTasks();
  }

  @Override
  public int parkedCount() {
    return parkingLot.parkedCount();
  }

  @Override
  public Optional<ParkedTask> parkedTask(UUID taskId) {
    return parkingLot.parkedTask(taskId);
  }

  @Override
  public ParkedSummary parkedSummary() {
    return parkingLot.summary();
  }

  @Override
  public int maxParkedTasks() {
    return settings.maxParkedTasks();
  }

  @Override
  public int maxKeyLength() {
    return settings.maxKeyLength();
  }

  @Override
  public RateLimitScope scopeOf(GateSpec gate, String key) {
    return policies.scopeOf(gate, key);
  }

  @Override
  public Map<String, RateOverride> overrides() {
    return policies.overrides();
  }

  @Override
  public Optional<List<PacingMark>> pacingMarks(String scope, String key) {
    return pacing.marks(scope, key);
  }

  @Override
  public PushBack lastPushBack(String scope, String key, Instant now) {
    return pushBacks.last(scope, key, now);
  }

  @Override
  public Restored restored(String scope, String key, Instant now) {
    return saved == null ? null : saved.restored(scope, key, now);
  }
}
