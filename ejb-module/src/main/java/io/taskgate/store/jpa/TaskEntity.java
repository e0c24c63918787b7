package io.taskgate.store.jpa;

import io.taskgate.api.TaskStatus;
import io.taskgate.store.StoredTask;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Lob;
import jakarta.persistence.Table;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * The row of one task. Ids are 36-character UUID strings, instants are {@code TIMESTAMP(6) WITH
 * TIME ZONE} (microseconds; the entity holds them as UTC {@link OffsetDateTime}s, which EclipseLink
 * 4.0 binds as instants: it has no mapping for {@link Instant}), the payload a character large
 * object (CLOB on H2, TEXT on PostgreSQL). The version is a plain column: {@link JpaTaskStore}
 * moves it with a compare-and-set UPDATE (a JPA {@code @Version} would be written as 1 at insert,
 * where the SPI starts at 0).
 */
@Entity
@Table(
    name = "taskgate_task",
    indexes = {
      @Index(name = "taskgate_task_due", columnList = "status, scheduled_at, id"),
      @Index(name = "taskgate_task_type_key", columnList = "type, task_key"),
      // Descending: the admin list is newest first, and H2 does not read an index backwards.
      @Index(name = "taskgate_task_created", columnList = "created_at DESC, id DESC"),
      @Index(name = "taskgate_task_owner", columnList = "owner_instance, status"),
      @Index(name = "taskgate_task_rate_key", columnList = "rate_key, type"),
      // schema version 2: ended tasks by end time (retention, bulk actions)
      @Index(name = "taskgate_task_ended", columnList = "status, updated_at, id")
    })
class TaskEntity {

  static final int UUID_LENGTH = 36;
  static final int NAME_LENGTH = 255;
  static final int RECURRENCE_LENGTH = 1000;
  static final int ERROR_LENGTH = 2000;
  static final String TIMESTAMP = "TIMESTAMP(6) WITH TIME ZONE";
  static final int OWNER_LENGTH = 64;
  static final int RATE_KEY_LENGTH = 1024;
  static final int TRACE_PARENT_LENGTH = 128;

  @Id
  @Column(name = "id", length = UUID_LENGTH, nullable = false, updatable = false)
  private String id;

  @Column(name = "type", length = NAME_LENGTH, nullable = false, updatable = false)
  private String type;

  @Lob
  @Column(name = "payload", nullable = false)
  private String payload;

  @Enumerated(EnumType.STRING)
  @Column(name = "status", length = 16, nullable = false)
  private TaskStatus status;

  @Column(name = "queue", length = NAME_LENGTH, nullable = false)
  private String queue;

  @Column(name = "task_key", length = NAME_LENGTH)
  private String taskKey;

  @Column(name = "scheduled_at", columnDefinition = TIMESTAMP, nullable = false)
  private OffsetDateTime scheduledAt;

  @Column(name = "attempt", nullable = false)
  private int attempt;

  @Column(name = "last_error", length = ERROR_LENGTH)
  private String lastError;

  @Column(name = "recurrence", length = RECURRENCE_LENGTH)
  private String recurrence;

  @Column(name = "runs", nullable = false)
  private long runs;

  @Column(name = "created_at", columnDefinition = TIMESTAMP, nullable = false, updatable = false)
  private OffsetDateTime createdAt;

  @Column(name = "updated_at", columnDefinition = TIMESTAMP, nullable = false)
  private OffsetDateTime updatedAt;

  @Column(name = "version", nullable = false)
  private long version;

  /** The instance holding the task (see {@link StoredTask#owner}). */
  @Column(name = "owner_instance", length = OWNER_LENGTH)
  private String owner;

  /** The task's rate-limit key (see {@link StoredTask#rateKey}). */
  @Column(name = "rate_key", length = RATE_KEY_LENGTH)
  private String rateKey;

  /** The dispatching code's trace context (see {@link StoredTask#traceParent}); schema 5. */
  @Column(name = "trace_parent", length = TRACE_PARENT_LENGTH, updatable = false)
  private String traceParent;

  protected TaskEntity() {}

  /** The row of {@code task}, which the store has already normalized. */
  TaskEntity(StoredTask task) {
    id = task.id().toString();
    type = task.type();
    payload = task.payload();
    status = task.status();
    queue = task.queue();
    taskKey = task.taskKey();
    scheduledAt = column(task.scheduledAt());
    attempt = task.attempt();
    lastError = task.lastError();
    recurrence = task.recurrence();
    runs = task.runs();
    createdAt = column(task.createdAt());
    updatedAt = column(task.updatedAt());
    version = task.version();
    owner = task.owner();
    rateKey = task.rateKey();
    traceParent = task.traceParent();
  }

  /** {@code instant} as the timestamp columns take it (bound as an instant, not a wall clock). */
  static OffsetDateTime column(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC);
  }

  StoredTask toStoredTask() {
    return new StoredTask(
        UUID.fromString(id),
        type,
        payload,
        status,
        queue,
        taskKey,
        scheduledAt.toInstant(),
        attempt,
        lastError,
        recurrence,
        runs,
        createdAt.toInstant(),
        updatedAt.toInstant(),
        version,
        owner,
        rateKey,
        traceParent);
  }
}
