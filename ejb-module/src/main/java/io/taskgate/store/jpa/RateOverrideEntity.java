package io.taskgate.store.jpa;

import io.taskgate.store.ThrottlerStore.RateOverride;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.time.OffsetDateTime;

/** A task type's rate limit (or one key's) changed at run time. */
@Entity
@Table(name = "taskgate_rate_override")
class RateOverrideEntity {
  @Id
  @Column(name = "id", length = 600, nullable = false, updatable = false)
  private String id;

  @Column(name = "task_type", length = TaskEntity.NAME_LENGTH, nullable = false, updatable = false)
  private String taskType;

  @Column(name = "rate_key", length = 300, updatable = false)
  private String key;

  @Column(name = "permits", nullable = false)
  private int permits;

  @Column(name = "period_nanos", nullable = false)
  private long periodNanos;

  @Column(name = "burst", nullable = false)
  private int burst;

  @Column(name = "updated_at", columnDefinition = TaskEntity.TIMESTAMP, nullable = false)
  private OffsetDateTime updatedAt;

  protected RateOverrideEntity() {}

  RateOverrideEntity(RateOverride override, Instant now) {
    id = id(override.taskType(), override.key());
    taskType = override.taskType();
    key = override.key();
    update(override, now);
  }

  static String id(String taskType, String key) {
    return key == null ? taskType : taskType + "\n" + key;
  }

  void update(RateOverride override, Instant now) {
    permits = override.permits();
    periodNanos = override.periodNanos();
    burst = override.burst();
    updatedAt = TaskEntity.column(now);
  }

  RateOverride toOverride() {
    return new RateOverride(taskType, key, permits, periodNanos, burst);
  }
}
