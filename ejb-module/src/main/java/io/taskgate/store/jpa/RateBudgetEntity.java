package io.taskgate.store.jpa;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/**
 * A rate-limited key's saved budget: the theoretical arrival time its starts left ({@link
 * JpaBudgetStore}). Written with SQL; mapped so that the schema is the entities'.
 */
@Entity
@Table(
    name = "taskgate_rate_budget",
    indexes = {@Index(name = "taskgate_rate_budget_tat", columnList = "tat_nanos")})
class RateBudgetEntity {
  /** A hex SHA-256 of the scope and the key. */
  static final int ID_LENGTH = 64;

  @Id
  @Column(name = "id", length = ID_LENGTH, nullable = false, updatable = false)
  private String id;

  @Column(name = "scope", length = TaskEntity.NAME_LENGTH, nullable = false, updatable = false)
  private String scope;

  @Column(
      name = "rate_key",
      length = TaskEntity.RATE_KEY_LENGTH,
      nullable = false,
      updatable = false)
  private String rateKey;

  @Column(name = "tat_nanos", nullable = false)
  private long tatNanos;

  @Column(name = "saved_at", columnDefinition = TaskEntity.TIMESTAMP, nullable = false)
  private OffsetDateTime savedAt;

  protected RateBudgetEntity() {}
}
