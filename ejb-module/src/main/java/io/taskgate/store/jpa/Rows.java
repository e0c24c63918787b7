package io.taskgate.store.jpa;

import jakarta.persistence.TypedQuery;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The one-statement reads and deletes the JPA stores share, each run by a {@link Transactor} (in a
 * transaction of its own, or the caller's).
 */
final class Rows {
  private Rows() {}

  /** The rows the entity query {@code jpql} selects, each as {@code toRecord} reads it. */
  static <E, R> List<R> list(Transactor tx, String jpql, Class<E> entity, Function<E, R> toRecord) {
    return list(tx, jpql, entity, UnaryOperator.identity(), toRecord);
  }

  /**
   * The rows the entity query {@code jpql} selects once {@code bind} has set its parameters (and
   * bounds), each as {@code toRecord} reads it.
   */
  static <E, R> List<R> list(
      Transactor tx,
      String jpql,
      Class<E> entity,
      UnaryOperator<TypedQuery<E>> bind,
      Function<E, R> toRecord) {
    return tx.inTransaction(
        em ->
            bind.apply(em.createQuery(jpql, entity)).getResultList().stream()
                .map(toRecord)
                .toList());
  }

  /**
   * Runs the DELETE (or UPDATE) statement {@code jpql} with its one parameter {@code name} set to
   * {@code value}; how many rows it changed.
   */
  static int execute(Transactor tx, String jpql, String name, Object value) {
    return tx.inTransaction(em -> em.createQuery(jpql).setParameter(name, value).executeUpdate());
  }
}
