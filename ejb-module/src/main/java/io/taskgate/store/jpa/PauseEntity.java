package io.taskgate.store.jpa;

import io.taskgate.api.PauseScope;
import io.taskgate.store.Pause;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/** A pause in force: one row per paused queue, task type or rate-limit key. */
@Entity
@Table(name = "taskgate_pause")
class PauseEntity {
  static final int ID_LENGTH = Pause.MAX_NAME_LENGTH + 8;

  @Id
  @Column(name = "id", length = ID_LENGTH, nullable = false, updatable = false)
  private String id;

  @Column(name = "scope", length = 8, nullable = false, updatable = false)
  private String scope;

  @Column(name = "name", length = Pause.MAX_NAME_LENGTH, nullable = false, updatable = false)
  private String name;

  @Column(
      name = "paused_at",
      columnDefinition = TaskEntity.TIMESTAMP,
      nullable = false,
      updatable = false)
  private OffsetDateTime pausedAt;

  @Column(name = "paused_by", length = 128, nullable = false, updatable = false)
  private String pausedBy;

  @Column(name = "reason", length = Pause.MAX_REASON_LENGTH, updatable = false)
  private String reason;

  protected PauseEntity() {}

  PauseEntity(Pause pause) {
    id = id(pause.scope(), pause.name());
    scope = pause.scope().name();
    name = pause.name();
    pausedAt = TaskEntity.column(pause.at());
    pausedBy = cut(pause.by(), 128);
    reason = pause.reason() == null ? null : cut(pause.reason(), Pause.MAX_REASON_LENGTH);
  }

  static String id(PauseScope scope, String name) {
    return scope.name() + ":" + name;
  }

  private static String cut(String text, int max) {
    return text.length() > max ? text.substring(0, max - 1) + "…" : text;
  }

  Pause toPause() {
    return new Pause(PauseScope.valueOf(scope), name, pausedAt.toInstant(), pausedBy, reason);
  }
}
