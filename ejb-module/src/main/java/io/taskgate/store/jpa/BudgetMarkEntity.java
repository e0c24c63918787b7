package io.taskgate.store.jpa;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/**
 * Up to when an instance saved the budgets its starts spent ({@link JpaBudgetStore}). Written with
 * SQL; mapped so that the schema is the entities'.
 */
@Entity
@Table(name = "taskgate_budget_mark")
class BudgetMarkEntity {
  @Id
  @Column(name = "instance_id", length = InstanceEntity.ID_LENGTH, nullable = false)
  private String instanceId;

  @Column(name = "saved_at", columnDefinition = TaskEntity.TIMESTAMP, nullable = false)
  private OffsetDateTime savedAt;

  protected BudgetMarkEntity() {}
}
