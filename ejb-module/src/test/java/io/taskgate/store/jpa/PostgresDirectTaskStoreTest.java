package io.taskgate.store.jpa;

import org.postgresql.ds.PGSimpleDataSource;

/**
 * The store contract on PostgreSQL with the store's own writes committed directly on a data source
 * of the same database, as the container runs it ({@link JpaTaskStore#writingThrough}).
 */
class PostgresDirectTaskStoreTest extends PostgresTaskStoreTest {

  @Override
  JpaTaskStore newStore(Transactor tx) {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setURL(SERVER + "?currentSchema=" + schema);
    dataSource.setUser(USER);
    dataSource.setPassword("");
    return super.newStore(tx).writingThrough(dataSource);
  }
}
