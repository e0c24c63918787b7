package io.taskgate.store.jpa;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import java.util.function.Function;

/**
 * A {@link Transactor} in the container: joins the caller's JTA transaction or starts one, on the
 * {@code taskgate} persistence unit's transaction-scoped persistence context.
 */
@ApplicationScoped
public class JtaTransactor implements Transactor {

  @PersistenceContext(unitName = "taskgate")
  EntityManager em;

  @Resource TransactionSynchronizationRegistry transactions;

  @Override
  public boolean active() {
    return transactions.getTransactionStatus() != Status.STATUS_NO_TRANSACTION;
  }

  @Override
  @Transactional(Transactional.TxType.REQUIRED)
  public <T> T inTransaction(Function<EntityManager, T> work) {
    return work.apply(em);
  }
}
