package io.taskgate.engine.throttle.ratelimit;

import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.engine.budget.GateSettings;
import io.taskgate.engine.budget.RatePolicies;
import io.taskgate.engine.handler.GateSpec;
import io.taskgate.engine.throttle.PacingMark;
import io.taskgate.engine.throttle.ParkedTask;
import io.taskgate.engine.throttle.PushBack;
import io.taskgate.engine.throttle.RateLimitReads;
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
  @Inject ParkingLot parkingLot;
  @Inject GateSettings settings;
  @Inject RatePolicies policies;
  @Inject PacingLog pacing;
  @Inject PushBacks pushBacks;

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
}
