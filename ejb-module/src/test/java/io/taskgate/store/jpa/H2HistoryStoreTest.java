package io.taskgate.store.jpa;

import jakarta.persistence.EntityManagerFactory;

/** The history contract on H2 in memory. */
class H2HistoryStoreTest extends HistoryStoreContract {
  @Override
  EntityManagerFactory openFactory() {
    return H2TestDatabase.inMemory("history");
  }

  @Override
  void dropDatabase() {}
}
