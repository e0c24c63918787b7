package io.taskgate.store.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The store contract on H2 2.2.224, the database Payara embeds as {@code jdbc/__default}: a private
 * in-memory database for this class.
 */
class H2TaskStoreTest extends TaskStoreContract {

  /** The database's URL, once opened. */
  String url;

  @Override
  EntityManagerFactory openFactory() {
    url =
        "jdbc:h2:mem:taskgate_"
            + UUID.randomUUID().toString().replace("-", "")
            + ";DB_CLOSE_DELAY=-1";
    return H2TestDatabase.at(url);
  }

  @Override
  List<String> expectedColumnTypes() {
    // EclipseLink's H2Platform maps a @Lob String to H2's longest VARCHAR, not to CLOB.
    return List.of(
        "CHARACTER VARYING(36)",
        "CHARACTER VARYING(1000000000)",
        "TIMESTAMP WITH TIME ZONE(32)",
        "CHARACTER VARYING(2000)");
  }

  @Test
  void theNewestFirstListReadsItsIndexRatherThanSortingTheTable() throws Exception {
    try (Connection c = DriverManager.getConnection(url, "sa", "");
        Statement s = c.createStatement();
        ResultSet plan =
            s.executeQuery(
                "EXPLAIN SELECT * FROM taskgate_task WHERE 1 = 1"
                    + " ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET 0")) {
      assertThat(plan.next()).isTrue();
      assertThat(plan.getString(1))
          .containsIgnoringCase("taskgate_task_created")
          .contains("index sorted");
    }
  }

  @Override
  void dropDatabase() {
    // In memory: gone with the JVM; closing the factory leaves nothing on disk.
  }
}
