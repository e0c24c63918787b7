package io.taskgate.engine.throttle;

import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.engine.handler.GateSpec;
import io.taskgate.store.ParkedSummary;
import io.taskgate.store.ThrottlerStore.RateOverride;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The rate-limit throttle's state as the views read it: what is parked and until when, the settings
 * that bound it, each key's policy, pacing timeline and last upstream push-back. Read only; the
 * throttle keeps how it is held to itself.
 */
public interface RateLimitReads {
  /** The tasks parked until their slot on this instance, as they are now (a live view). */
  Collection<ParkedTask> parkedTasks();

  /** How many tasks are parked on this instance. */
  int parkedCount();

  /** The parked task with this id, if it is parked here. */
  Optional<ParkedTask> parkedTask(UUID taskId);

  /** What is parked here, by key (as this instance's heartbeat tells its peers). */
  ParkedSummary parkedSummary();

  /** The most tasks parked at once ({@code taskgate.rate-limit.max-parked-tasks}). */
  int maxParkedTasks();

  /** The longest key tracked as given; longer ones are shortened alike everywhere. */
  int maxKeyLength();

  /** The budgets and policy of {@code key} of a rate-limited type, overrides applied. */
  RateLimitScope scopeOf(GateSpec gate, String key);

  /** The policies changed at run time, by type and key. */
  Map<String, RateOverride> overrides();

  /** The key's pacing timeline, oldest mark first; empty when it has none. */
  Optional<List<PacingMark>> pacingMarks(String scope, String key);

  /**
   * How the key's budget was carried over the last restart, while it still counts at {@code now}
   * (until the budget is whole again); else null.
   */
  Restored restored(String scope, String key, Instant now);

  /** The key's last upstream push-back if it is still shown at {@code now}, else null. */
  PushBack lastPushBack(String scope, String key, Instant now);
}
