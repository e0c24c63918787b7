package io.taskgate.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.TaskStatus;
import io.taskgate.core.task.AuditLevel;
import io.taskgate.engine.cluster.ClusterWiring;
import io.taskgate.engine.cluster.Instances;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.time.ManualTimeline;
import io.taskgate.store.InstanceRecord;
import io.taskgate.store.ParkedSummary;
import io.taskgate.store.StoredTask;
import io.taskgate.store.jpa.H2TestDatabase;
import io.taskgate.store.jpa.JpaInstanceStore;
import io.taskgate.store.jpa.JpaTaskQueries;
import io.taskgate.store.jpa.JpaTaskStore;
import io.taskgate.store.jpa.ResourceLocalTransactor;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Instances sharing one store (H2 in memory), time moved by hand: recovery and the sweep never
 * touch a live peer's tasks, and the tasks of a peer that died are taken over exactly once.
 */
class StoreSweepOwnersTest {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  final ManualTimeline timeline = new ManualTimeline(T0);
  final List<String> handed = Collections.synchronizedList(new ArrayList<>());
  EntityManagerFactory factory;
  JpaTaskStore store;
  JpaTaskQueries queries;
  JpaInstanceStore instanceStore;

  @BeforeEach
  void open() {
    factory = H2TestDatabase.inMemory("owners");
    ResourceLocalTransactor tx = new ResourceLocalTransactor(factory);
    store = new JpaTaskStore(tx, AuditLevel.FULL);
    queries = new JpaTaskQueries(tx);
    instanceStore = new JpaInstanceStore(tx);
  }

  @AfterEach
  void close() {
    factory.close();
  }

  /** An instance: its heartbeat view and a sweep whose scheduler notes what it is handed. */
  record Node(Instances instances, StoreSweep sweep, TaskScheduler scheduler) {}

  Node node(String id) {
    TaskQueues queues =
        new TaskQueues() {
          @Override
          public void enqueue(String queue, UUID taskId, Duration wait) {
            handed.add(id + " " + taskId);
          }

          @Override
          public String resolve(String queue) {
            return queue;
          }
        };
    TaskScheduler scheduler =
        SchedulerWiring.scheduler(queues, timeline.timers(), timeline.clock(), timeline.ticker());
    Instances instances = ClusterWiring.instances(id, instanceStore, timeline.clock());
    return new Node(
        instances, new StoreSweep(store, queries, queues, scheduler, instances), scheduler);
  }

  StoredTask stored(String owner, Instant due) {
    StoredTask task =
        StoredTask.queued(UUID.randomUUID(), "Ping", "{}", "default", null, due, null, T0)
            .withOwner(owner);
    store.insert(task);
    return task;
  }

  StoredTask running(String owner) {
    StoredTask task = stored(owner, T0);
    return store
        .update(
            store.find(task.id()).orElseThrow(),
            task.withStatus(TaskStatus.IN_PROGRESS).withAttempt(1),
            T0)
        .orElseThrow();
  }

  StoredTask now(StoredTask task) {
    return store.find(task.id()).orElseThrow();
  }

  @Test
  void recoveryAndTheSweepLeaveALivePeersTasksAlone() {
    Node a = node("a");
    Node b = node("b");
    b.instances().beat(ParkedSummary.NONE, null);
    a.instances().beat(ParkedSummary.NONE, null);
    StoredTask bQueued = stored("b", T0);
    StoredTask bRunning = running("b");
    StoredTask aQueued = stored("a", T0);

    a.sweep().recover(T0);
    a.sweep().sweep(T0);

    assertThat(handed).containsExactly("a " + aQueued.id());
    assertThat(now(bQueued).owner()).isEqualTo("b");
    assertThat(now(bRunning).status()).isEqualTo(TaskStatus.IN_PROGRESS);
    assertThat(now(bRunning).owner()).isEqualTo("b");
  }

  @Test
  void recoveryTakesItsOwnInterruptedTasksAndThoseOfNoInstanceAndMakesThemItsOwn() {
    Node a = node("a");
    a.instances().beat(ParkedSummary.NONE, null);
    StoredTask own = running("a");
    StoredTask legacy = running(null);
    StoredTask unowned = stored(null, T0);

    a.sweep().recover(T0);

    for (StoredTask task : List.of(own, legacy)) {
      assertThat(now(task).status()).isEqualTo(TaskStatus.QUEUED);
      assertThat(now(task).attempt()).as("the attempt cut short is given back").isZero();
      assertThat(now(task).owner()).isEqualTo("a");
    }
    assertThat(now(unowned).owner()).isEqualTo("a");
    assertThat(handed)
        .containsExactlyInAnyOrder("a " + own.id(), "a " + legacy.id(), "a " + unowned.id());
  }

  @Test
  void aDeadPeersTasksAreTakenOverOnceWhenTwoSurvivorsTryAndItIsForgotten() {
    Node a = node("a");
    Node b = node("b");
    Node c = node("c");
    b.instances().beat(ParkedSummary.NONE, null); // b's last beat: T0
    StoredTask dueNow = stored("b", T0);
    StoredTask later = stored("b", T0.plus(Duration.ofHours(1)));
    StoredTask interrupted = running("b");
    timeline.advance(Duration.ofSeconds(31)); // b is silent for longer than the timeout
    a.instances().beat(ParkedSummary.NONE, null);
    c.instances().beat(ParkedSummary.NONE, null);
    Instant now = timeline.clock().instant();

    int byA = a.sweep().takeOver(now);
    int byC = c.sweep().takeOver(now);

    assertThat(byA + byC).isEqualTo(3);
    for (StoredTask task : List.of(dueNow, later, interrupted)) {
      assertThat(now(task).owner()).isIn("a", "c");
      assertThat(now(task).status()).isEqualTo(TaskStatus.QUEUED);
    }
    assertThat(now(interrupted).attempt()).isZero();
    assertThat(now(interrupted).lastError()).startsWith("interrupted: attempt 1 did not finish");
    assertThat(handed)
        .as("each due task handed to one instance's queue, once")
        .hasSize(2)
        .allSatisfy(h -> assertThat(h).matches("[ac] .*"));
    String laterOwner = now(later).owner();
    Node holder = laterOwner.equals("a") ? a : c;
    assertThat(holder.scheduler().hasTimer(later.id())).as("on its timeline until due").isTrue();
    a.instances().beat(ParkedSummary.NONE, null);
    assertThat(a.instances().known()).extracting(InstanceRecord::id).containsExactly("a", "c");
  }

  @Test
  void aPeerThatStoppedCleanlyIsTakenOverAtTheNextBeatWithoutWaitingForTheTimeout() {
    Node a = node("a");
    Node b = node("b");
    b.instances().beat(ParkedSummary.NONE, null);
    a.instances().beat(ParkedSummary.NONE, null);
    StoredTask queued = stored("b", T0);
    b.instances().leave();
    timeline.advance(Duration.ofSeconds(10)); // one beat later, well within the timeout
    a.instances().beat(ParkedSummary.NONE, null);

    assertThat(a.sweep().takeOver(timeline.clock().instant())).isEqualTo(1);
    assertThat(now(queued).owner()).isEqualTo("a");
  }
}
