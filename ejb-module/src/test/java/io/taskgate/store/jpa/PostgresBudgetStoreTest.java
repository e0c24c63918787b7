package io.taskgate.store.jpa;

import jakarta.persistence.EntityManagerFactory;
import java.sql.SQLException;

/**
 * The budget store contract on PostgreSQL, in a schema of its own, as {@link
 * PostgresTaskStoreTest}.
 */
class PostgresBudgetStoreTest extends BudgetStoreContract {
  private final PostgresTaskStoreTest database = new PostgresTaskStoreTest();

  @Override
  EntityManagerFactory openFactory() throws SQLException {
    return database.openFactory();
  }

  @Override
  void dropDatabase() throws SQLException {
    database.dropDatabase();
  }
}
