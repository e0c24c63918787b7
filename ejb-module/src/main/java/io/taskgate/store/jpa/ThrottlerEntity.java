package io.taskgate.store.jpa;

import io.taskgate.api.ThrottlerKind;
import io.taskgate.store.ThrottlerRecord;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.time.OffsetDateTime;

/** The row of one semaphore or window definition. */
@Entity
@Table(name = "taskgate_throttler")
class ThrottlerEntity {
  @Id
  @Column(name = "name", length = 128, nullable = false, updatable = false)
  private String name;

  @Column(name = "kind", length = 32, nullable = false, updatable = false)
  private String kind;

  @Column(name = "resource_id", length = 100, nullable = false, updatable = false)
  private String resourceId;

  @Column(name = "limit_value", nullable = false)
  private int limit;

  @Column(name = "interval_ms", nullable = false)
  private long intervalMillis;

  @Column(name = "buckets", nullable = false)
  private int buckets;

  @Column(name = "capacity", nullable = false)
  private int capacity;

  @Column(name = "min_limit", nullable = false)
  private int minLimit;

  @Column(name = "max_limit", nullable = false)
  private int maxLimit;

  @Column(name = "updated_at", columnDefinition = TaskEntity.TIMESTAMP, nullable = false)
  private OffsetDateTime updatedAt;

  protected ThrottlerEntity() {}

  ThrottlerEntity(ThrottlerRecord record, Instant now) {
    name = name(record.kind(), record.id());
    kind = record.kind().name();
    resourceId = record.id();
    update(record, now);
  }

  static String name(ThrottlerKind kind, String id) {
    return kind.label() + ":" + id;
  }

  void update(ThrottlerRecord record, Instant now) {
    limit = record.limit();
    intervalMillis = record.intervalMillis();
    buckets = record.buckets();
    capacity = record.capacity();
    minLimit = record.minLimit();
    maxLimit = record.maxLimit();
    updatedAt = TaskEntity.column(now);
  }

  ThrottlerRecord toRecord() {
    return new ThrottlerRecord(
        ThrottlerKind.valueOf(kind),
        resourceId,
        limit,
        intervalMillis,
        buckets,
        capacity,
        minLimit,
        maxLimit);
  }
}
