package io.taskgate.store.jpa;

import io.taskgate.store.schema.UrlDataSource;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.util.Map;
import java.util.UUID;

/** A fresh in-memory H2 database on the test persistence unit, for the tests that need a store. */
public final class H2TestDatabase {
  private H2TestDatabase() {}

  /** A factory on a new, empty in-memory database whose name starts with {@code name}. */
  public static EntityManagerFactory inMemory(String name) {
    return at(
        "jdbc:h2:mem:"
            + name
            + "_"
            + UUID.randomUUID().toString().replace("-", "")
            + ";DB_CLOSE_DELAY=-1");
  }

  /**
   * A factory on the H2 database at {@code url}, once its schema is this build's (migrated as the
   * container does it). An in-memory database's URL must keep it open ({@code DB_CLOSE_DELAY=-1}).
   */
  public static EntityManagerFactory at(String url) {
    UrlDataSource.migrate(url, "sa");
    return Persistence.createEntityManagerFactory(
        TaskStoreContract.TEST_UNIT,
        Map.of(
            "eclipselink.persistencexml", TaskStoreContract.TEST_PERSISTENCE_XML,
            "jakarta.persistence.jdbc.driver", "org.h2.Driver",
            "jakarta.persistence.jdbc.url", url,
            "jakarta.persistence.jdbc.user", "sa",
            "jakarta.persistence.jdbc.password", ""));
  }
}
