package io.taskgate.store.jpa;

import jakarta.persistence.EntityManagerFactory;

/** The pause store contract on H2 in memory. */
class H2PauseStoreTest extends PauseStoreContract {
  @Override
  EntityManagerFactory openFactory() {
    return H2TestDatabase.inMemory("pauses");
  }

  @Override
  void dropDatabase() {}
}
