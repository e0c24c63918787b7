package io.taskgate.store.jpa;

import io.taskgate.api.TaskStatus;
import io.taskgate.store.TaskAudit;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * The row of one status change. Its id is a random UUID; its order within a task is the task
 * version the change produced, so two changes at the same instant still read back in order.
 */
@Entity
@Table(
    name = "taskgate_task_audit",
    indexes = {@Index(name = "taskgate_task_audit_task", columnList = "task_id, task_version")})
class TaskAuditEntity {

  @Id
  @Column(name = "id", length = TaskEntity.UUID_LENGTH, nullable = false, updatable = false)
  private String id;

  @Column(name = "task_id", length = TaskEntity.UUID_LENGTH, nullable = false, updatable = false)
  private String taskId;

  @Column(name = "task_version", nullable = false, updatable = false)
  private long taskVersion;

  @Enumerated(EnumType.STRING)
  @Column(name = "from_status", length = 16, updatable = false)
  private TaskStatus fromStatus;

  @Enumerated(EnumType.STRING)
  @Column(name = "to_status", length = 16, nullable = false, updatable = false)
  private TaskStatus toStatus;

  @Column(name = "at", columnDefinition = TaskEntity.TIMESTAMP, nullable = false, updatable = false)
  private OffsetDateTime at;

  @Column(name = "attempt", nullable = false, updatable = false)
  private int attempt;

  @Column(name = "detail", length = TaskEntity.ERROR_LENGTH, updatable = false)
  private String detail;

  protected TaskAuditEntity() {}

  /** The row of {@code audit}, written with the task's version {@code taskVersion}. */
  TaskAuditEntity(TaskAudit audit, long taskVersion) {
    id = UUID.randomUUID().toString();
    taskId = audit.taskId().toString();
    this.taskVersion = taskVersion;
    fromStatus = audit.from();
    toStatus = audit.to();
    at = TaskEntity.column(audit.at());
    attempt = audit.attempt();
    detail = audit.detail();
  }

  TaskAudit toTaskAudit() {
    return new TaskAudit(
        UUID.fromString(taskId), fromStatus, toStatus, at.toInstant(), attempt, detail);
  }
}
