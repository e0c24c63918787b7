package io.taskgate.engine.throttle.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.Handler;
import io.taskgate.api.Mutex;
import io.taskgate.api.Strictness;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import io.taskgate.api.TaskStatus;
import io.taskgate.api.Throttling;
import io.taskgate.core.task.AuditLevel;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.Payloads;
import io.taskgate.engine.throttle.ThrottleChain.Admission;
import io.taskgate.engine.throttle.jobs.FamilyFixture.Ship;
import io.taskgate.engine.throttle.jobs.FamilyFixture.ShipHandler;
import io.taskgate.store.StoredTask;
import io.taskgate.store.jpa.H2TestDatabase;
import io.taskgate.store.jpa.JpaTaskQueries;
import io.taskgate.store.jpa.JpaTaskStore;
import io.taskgate.store.jpa.ResourceLocalTransactor;
import jakarta.persistence.EntityManagerFactory;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Holds taken again from the store after a restart (tasks on H2 in memory, the throttlers' state
 * empty): running tasks of any throttle, and tasks waiting for their retry of a strict one.
 */
public class RetakenHoldsTest {
  @TaskHandler
  @Mutex("order-{orderId}")
  static class Relaxed extends ShipHandler {}

  /** A task of another type, whose handler is strict. */
  public record Pack(long orderId) implements Task {}

  @TaskHandler
  @Mutex("strict-{orderId}")
  @Throttling(strictness = Strictness.STRICT)
  static class Strict implements Handler<Pack> {
    @Override
    public void handle(Pack task, TaskContext context) {}
  }

  @TaskHandler
  @io.taskgate.api.Semaphore("newsletter")
  static class Newsletter extends ShipHandler {}

  private final EntityManagerFactory factory = H2TestDatabase.inMemory("retaken");
  private final ResourceLocalTransactor tx = new ResourceLocalTransactor(factory);
  private final JpaTaskStore store = new JpaTaskStore(tx, AuditLevel.NONE);
  private final Payloads payloads = new Payloads();
  private final FamilyFixture f = new FamilyFixture();

  @AfterEach
  void close() {
    factory.close();
  }

  private StoredTask stored(Task task, TaskStatus status, int attempt) {
    StoredTask queued =
        StoredTask.queued(
            UUID.randomUUID(),
            task.getClass().getName(),
            payloads.write(task),
            "default",
            null,
            FamilyFixture.T0,
            null,
            FamilyFixture.T0);
    store.insert(queued);
    StoredTask changed = queued.withStatus(status).withAttempt(attempt);
    return store.update(queued, changed, FamilyFixture.T0).orElseThrow();
  }

  @Test
  void runningTasksAndStrictRetriesHoldAgainWhileRelaxedRetriesDoNot() {
    StoredTask running = stored(Ship.order(1), TaskStatus.IN_PROGRESS, 1);
    stored(Ship.order(2), TaskStatus.QUEUED, 1); // relaxed, waiting for its retry: holds nothing
    stored(new Pack(1), TaskStatus.IN_PROGRESS, 1);
    StoredTask strictRetry = stored(new Pack(2), TaskStatus.QUEUED, 1);
    stored(new Pack(3), TaskStatus.QUEUED, 0); // never started
    stored(new Pack(4), TaskStatus.COMPLETED, 1);
    List<HandlerInfo> handlers =
        List.of(FamilyFixture.handler(Relaxed.class), FamilyFixture.handler(Strict.class));

    int held = f.family.rebuild(handlers, new JpaTaskQueries(tx), payloads);

    assertThat(f.family.state().holders())
        .containsOnlyKeys("mutex:order-1", "mutex:strict-1", "mutex:strict-2");
    assertThat(f.family.state().holders().get("mutex:order-1"))
        .containsOnlyKeys(running.id().toString());
    assertThat(f.family.state().holders().get("mutex:strict-2"))
        .containsOnlyKeys(strictRetry.id().toString());
    assertThat(held).isEqualTo(3);
    // another task of order 1 waits; the running one re-enters when taken back
    Admission other =
        f.chain(Relaxed.class).acquire(f.attempt(Relaxed.class, Ship.order(1)), f.clock.instant());
    assertThat(other).isInstanceOf(Admission.Refused.class);
    Admission again =
        f.chain(Relaxed.class)
            .acquire(f.attempt(Relaxed.class, running.id(), Ship.order(1)), f.clock.instant());
    assertThat(again).isInstanceOf(Admission.Admitted.class);
  }

  @Test
  void aRelaxedSemaphoreWhoseBatchesSharedPermitsTakesBackOnlyItsCount() {
    // a worker's batch shared one permit: five tasks IN_PROGRESS under a semaphore of 2
    f.manager.addOrUpdateSemaphore("newsletter", 2);
    for (int i = 0; i < 5; i++) {
      stored(Ship.order(i), TaskStatus.IN_PROGRESS, 1);
    }

    int held =
        f.family.rebuild(
            List.of(FamilyFixture.handler(Newsletter.class)), new JpaTaskQueries(tx), payloads);

    assertThat(held).as("the count, not one per task").isEqualTo(2);
    assertThat(f.family.state().owners("semaphore:newsletter")).isEqualTo(2);
  }
}
