package io.taskgate.store.jpa;

import org.h2.jdbcx.JdbcDataSource;

/**
 * The store contract on H2 with the store's own writes committed directly on a data source of the
 * same database, as the container runs it ({@link JpaTaskStore#writingThrough}).
 */
class H2DirectTaskStoreTest extends H2TaskStoreTest {

  @Override
  JpaTaskStore newStore(Transactor tx) {
    JdbcDataSource dataSource = new JdbcDataSource();
    dataSource.setURL(url);
    dataSource.setUser("sa");
    dataSource.setPassword("");
    return super.newStore(tx).writingThrough(dataSource);
  }
}
