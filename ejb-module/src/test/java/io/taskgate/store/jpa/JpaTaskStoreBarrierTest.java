package io.taskgate.store.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.core.task.AuditLevel;
import io.taskgate.store.StoredTask;
import jakarta.persistence.EntityManagerFactory;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
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
