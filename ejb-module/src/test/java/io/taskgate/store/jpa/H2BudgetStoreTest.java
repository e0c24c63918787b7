package io.taskgate.store.jpa;

import jakarta.persistence.EntityManagerFactory;

/** The budget store contract on H2 in memory. */
class H2BudgetStoreTest extends BudgetStoreContract {
  @Override
  EntityManagerFactory openFactory() {
    return H2TestDatabase.inMemory("budgets");
  }

  @Override
  void dropDatabase() {}
}
