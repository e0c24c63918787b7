package io.taskgate.store.jpa;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/**
 * A unique key of a task type and the task it belongs to (or last belonged to): the row a unique
 * dispatch locks ({@link JdbcUnique}). Written with JDBC; mapped so that the schema is the
 * entities'.
 */
@Entity
@Table(
    name = "taskgate_unique",
    indexes = {@Index(name = "taskgate_unique_task", columnList = "task_id")})
class UniqueEntity {
  static final int ID_LENGTH = 2 * TaskEntity.NAME_LENGTH + 1;

  @Id
  @Column(name = "id", length = ID_LENGTH, nullable = false, updatable = false)
  private String id;

  @Column(name = "claimed_at", columnDefinition = TaskEntity.TIMESTAMP, nullable = false)
  private OffsetDateTime claimedAt;

  @Column(name = "task_id", length = TaskEntity.UUID_LENGTH, nullable = false)
  private String taskId;

  @Column(name = "type", length = TaskEntity.NAME_LENGTH, nullable = false, updatable = false)
  private String type;

  @Column(name = "unique_key", length = TaskEntity.NAME_LENGTH, nullable = false, updatable = false)
  private String uniqueKey;

  protected UniqueEntity() {}
}
