package io.taskgate.store.jpa;

import io.taskgate.api.ThrottlerKind;
import io.taskgate.store.ThrottlerChange;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;
import java.util.UUID;

/** One audited change of a throttler definition. */
@Entity
@Table(
    name = "taskgate_throttler_change",
    indexes = {@Index(name = "taskgate_throttler_change_at", columnList = "changed_at")})
class ThrottlerChangeEntity {
  @Id
  @Column(name = "id", length = TaskEntity.UUID_LENGTH, nullable = false, updatable = false)
  private String id;

  @Column(
      name = "changed_at",
      columnDefinition = TaskEntity.TIMESTAMP,
      nullable = false,
      updatable = false)
  private java.time.OffsetDateTime at;

  @Column(name = "changed_by", length = 128, nullable = false, updatable = false)
  private String by;

  @Column(name = "kind", length = 32, nullable = false, updatable = false)
  private String kind;

  @Column(name = "resource_id", length = 100, nullable = false, updatable = false)
  private String resourceId;

  @Column(name = "before_value", length = 255, updatable = false)
  private String before;

  @Column(name = "after_value", length = 255, updatable = false)
  private String after;

  protected ThrottlerChangeEntity() {}

  ThrottlerChangeEntity(ThrottlerChange change) {
    id = UUID.randomUUID().toString();
    at = TaskEntity.column(change.at());
    by = change.by().length() > 128 ? change.by().substring(0, 128) : change.by();
    kind = change.kind().name();
    resourceId = change.id();
    before = change.before();
    after = change.after();
  }

  ThrottlerChange toChange() {
    return new ThrottlerChange(
        at.toInstant(), by, ThrottlerKind.valueOf(kind), resourceId, before, after);
  }
}
