package io.taskgate.store.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.core.task.AuditLevel;
import io.taskgate.store.StoredTask;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The barrier after each commit runs once per own transaction and cannot undo a commit. */
class JpaTaskStoreBarrierTest {
  private final EntityManagerFactory factory = H2TestDatabase.inMemory("barrier");

  @AfterEach
  void close() {
    factory.close();
  }

  @Test
  void aBarrierThatFailsLeavesTheCommittedWriteAndItsAnswer() {
    AtomicInteger barriers = new AtomicInteger();
    JpaTaskStore store =
        new JpaTaskStore(new ResourceLocalTransactor(factory), AuditLevel.NONE)
            .afterEachCommit(
                connection -> {
                  barriers.incrementAndGet();
                  throw new IllegalStateException("flush failed");
                });
    Instant now = Instant.now();
    StoredTask task =
        StoredTask.queued(
            UUID.randomUUID(), "com.example.T", "{}", "default", null, now, null, now);

    store.insert(task);

    assertThat(barriers).hasValue(1);
    assertThat(store.find(task.id())).isPresent();
  }

  @Test
  void aStoreWritingThroughItsDataSourceRunsTheBarrierAfterTheCommitOnTheSameConnection() {
    String url = "jdbc:h2:mem:barrier_direct_" + UUID.randomUUID().toString().replace("-", "");
    EntityManagerFactory unit = H2TestDatabase.at(url + ";DB_CLOSE_DELAY=-1");
    try {
      JdbcDataSource dataSource = new JdbcDataSource();
      dataSource.setURL(url);
      dataSource.setUser("sa");
      List<Boolean> committedBeforeBarrier = new ArrayList<>();
      List<Boolean> autoCommitInBarrier = new ArrayList<>();
      JpaTaskStore store =
          new JpaTaskStore(new ResourceLocalTransactor(unit), AuditLevel.NONE)
              .writingThrough(dataSource);
      assertThat(store.find(UUID.randomUUID())).isEmpty(); // the unit creates its tables
      Instant now = Instant.now();
      StoredTask task =
          StoredTask.queued(
              UUID.randomUUID(), "com.example.T", "{}", "default", null, now, null, now);
      store.afterEachCommit(
          connection -> {
            autoCommitInBarrier.add(connection.getAutoCommit());
            try (Connection other = dataSource.getConnection();
                Statement statement = other.createStatement();
                ResultSet rows =
                    statement.executeQuery(
                        "SELECT COUNT(*) FROM taskgate_task WHERE id = '" + task.id() + "'")) {
              rows.next();
              committedBeforeBarrier.add(rows.getInt(1) == 1);
            }
            throw new SQLException("flush failed");
          });

      store.insert(task);

      assertThat(committedBeforeBarrier).containsExactly(true);
      assertThat(autoCommitInBarrier).containsExactly(true);
      assertThat(store.find(task.id())).isPresent();
    } finally {
      unit.close();
    }
  }
}
