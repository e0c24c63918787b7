package io.taskgate.store.jpa;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import java.util.Objects;
import java.util.function.Function;

/**
 * A {@link Transactor} outside a container: a fresh {@link EntityManager} and resource-local
 * transaction per call, committed on return, rolled back on any exception, closed either way.
 */
public final class ResourceLocalTransactor implements Transactor {

  private final EntityManagerFactory factory;

  public ResourceLocalTransactor(EntityManagerFactory factory) {
    this.factory = Objects.requireNonNull(factory, "factory");
  }

  @Override
  public <T> T inTransaction(Function<EntityManager, T> work) {
    EntityManager em = factory.createEntityManager();
    try {
      EntityTransaction tx = em.getTransaction();
      tx.begin();
      try {
        T result = work.apply(em);
        tx.commit();
        return result;
      } catch (RuntimeException | Error e) {
        if (tx.isActive()) {
          try {
            tx.rollback();
          } catch (RuntimeException rollbackFailure) {
            e.addSuppressed(rollbackFailure);
          }
        }
        throw e;
      }
    } finally {
      em.close();
    }
  }
}
