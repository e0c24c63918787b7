package io.taskgate.store.jpa;

import jakarta.persistence.EntityManager;
import java.util.function.Function;

/**
 * Runs a piece of store work in one transaction: a new one, or the caller's if one is active. The
 * work must not keep the {@link EntityManager} beyond the call.
 */
public interface Transactor {

  /** Runs {@code work} in a transaction and returns its result; a thrown exception rolls back. */
  <T> T inTransaction(Function<EntityManager, T> work);

  /** Whether the calling thread is in a transaction already (a call then joins it). */
  default boolean active() {
    return false;
  }
}
