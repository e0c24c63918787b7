package io.taskgate.store.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.core.task.AuditLevel;
import io.taskgate.store.StoredTask;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The barrier after each commit runs once per own transaction and cannot undo a commit. */
class JpaTaskStoreBarrierTest {
  private final EntityManagerFactory factory =
      Persistence.createEntityManagerFactory(
          "taskgate-test",
          Map.of(
              "eclipselink.persistencexml", "META-INF/taskgate-test-persistence.xml",
              "jakarta.persistence.jdbc.driver", "org.h2.Driver",
              "jakarta.persistence.jdbc.url",
                  "jdbc:h2:mem:barrier_"
                      + UUID.randomUUID().toString().replace("-", "")
                      + ";DB_CLOSE_DELAY=-1",
              "jakarta.persistence.jdbc.user", "sa",
              "jakarta.persistence.jdbc.password", ""));

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
                () -> {
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
}
