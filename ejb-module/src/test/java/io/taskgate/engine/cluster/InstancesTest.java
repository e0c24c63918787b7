package io.taskgate.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.engine.LogCapture;
import io.taskgate.engine.time.SettableClock;
import io.taskgate.store.InstanceRecord;
import io.taskgate.store.InstanceStore;
import io.taskgate.store.ParkedSummary;
import io.taskgate.store.jpa.H2TestDatabase;
import io.taskgate.store.jpa.JpaInstanceStore;
import io.taskgate.store.jpa.ResourceLocalTransactor;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Two instances sharing one database (H2 in memory) tell a live peer from a dead one. */
class InstancesTest {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  final SettableClock clock = new SettableClock(T0);
  EntityManagerFactory factory;
  InstanceStore store;
  Instances a;
  Instances b;

  @BeforeEach
  void open() {
    factory = H2TestDatabase.inMemory("cluster");
    store = new JpaInstanceStore(new ResourceLocalTransactor(factory));
    a = instance("a");
    b = instance("b");
  }

  @AfterEach
  void close() {
    factory.close();
  }

  Instances instance(String id) {
    Instances instances = new Instances();
    instances.store = store;
    instances.clock = clock;
    instances.settings =
        ClusterSettings.of(
            new ClusterSettings.Values(
                id, "host-" + id, Duration.ofSeconds(10), Duration.ofSeconds(30)));
    return instances;
  }

  @Test
  void aPeerThatBeatsIsAliveAndOneSilentForLongerThanTheTimeoutIsDead() {
    assertThat(a.beat(ParkedSummary.NONE, null)).isTrue();
    assertThat(b.beat(ParkedSummary.NONE, null)).isTrue();
    assertThat(a.dead("b", clock.instant())).isFalse();
    assertThat(a.mayTake("b", clock.instant())).isFalse();

    clock.advance(Duration.ofSeconds(31)); // b is silent from here
    a.beat(ParkedSummary.NONE, null);

    assertThat(a.dead("b", clock.instant())).isTrue();
    assertThat(a.mayTake("b", clock.instant())).isTrue();
    assertThat(b.dead("a", clock.instant())).as("b has not read a's new beat").isTrue();
    b.beat(ParkedSummary.NONE, null);
    assertThat(b.dead("a", clock.instant())).isFalse();
  }

  @Test
  void itsOwnTasksAreNeverAPeersAndUnownedOrUnknownOwnersAreNobodyAlive() {
    a.beat(ParkedSummary.NONE, null);

    assertThat(a.dead("a", clock.instant())).isFalse();
    assertThat(a.mayTake("a", clock.instant())).isTrue();
    assertThat(a.dead(null, clock.instant())).isTrue();
    assertThat(a.dead("never-seen", clock.instant())).isTrue();
  }

  @Test
  void aPeerThatStartedSinceTheLastBeatIsReadBeforeItCountsAsDead() {
    a.beat(ParkedSummary.NONE, null);
    clock.advance(Duration.ofSeconds(1));
    b.beat(ParkedSummary.NONE, null); // a has not seen b yet

    assertThat(a.dead("b", clock.instant())).isFalse();
    assertThat(a.known()).extracting(InstanceRecord::id).containsExactly("a", "b");
  }

  @Test
  void aCleanStopMarksTheRowSoPeersSeeItDeadAtOnceAndForgetItOnceItsTasksAreTaken() {
    a.beat(ParkedSummary.NONE, null);
    b.beat(ParkedSummary.NONE, null);
    b.leave();

    a.beat(ParkedSummary.NONE, null);

    assertThat(a.dead("b", clock.instant())).isTrue();
    assertThat(a.deadPeers(clock.instant())).extracting(InstanceRecord::id).containsExactly("b");
    assertThat(a.alive(clock.instant())).containsExactly("a");
    assertThat(a.forget(a.deadPeers(clock.instant()).get(0))).isTrue();
    a.beat(ParkedSummary.NONE, null);
    assertThat(a.known()).extracting(InstanceRecord::id).containsExactly("a");
  }

  @Test
  void aDeadPeerThatCameBackIsNotForgotten() {
    a.beat(ParkedSummary.NONE, null);
    b.beat(ParkedSummary.NONE, null);
    clock.advance(Duration.ofSeconds(31));
    a.beat(ParkedSummary.NONE, null);
    InstanceRecord dead = a.deadPeers(clock.instant()).get(0);

    b.beat(ParkedSummary.NONE, null); // back before a forgets it
    assertThat(a.forget(dead)).isFalse();
    a.beat(ParkedSummary.NONE, null);
    assertThat(a.dead("b", clock.instant())).isFalse();
  }

  @Test
  void twoInstancesWritingOneIdentityAreReported() {
    a.beat(ParkedSummary.NONE, null);
    clock.advance(Duration.ofSeconds(1));
    Instances twin = instance("a");
    twin.beat(ParkedSummary.NONE, null); // started a second after a, under a's identity
    clock.advance(Duration.ofSeconds(9));

    try (LogCapture log = new LogCapture(Instances.class, Level.SEVERE)) {
      a.beat(ParkedSummary.NONE, null);
      assertThat(log.messages(Level.SEVERE))
          .singleElement()
          .asString()
          .startsWith("Another instance writes its heartbeat as 'a' too")
          .endsWith("set taskgate.cluster.instance-id on each of them");
    }
  }

  @Test
  void aRestartUnderTheSameIdentityIsNotReported() {
    a.beat(ParkedSummary.NONE, null);
    clock.advance(Duration.ofSeconds(40));
    Instances restarted = instance("a");

    try (LogCapture log = new LogCapture(Instances.class, Level.SEVERE)) {
      restarted.beat(ParkedSummary.NONE, null);
      clock.advance(Duration.ofSeconds(10));
      restarted.beat(ParkedSummary.NONE, null);
      assertThat(log.messages(Level.SEVERE)).isEmpty();
    }
    assertThat(restarted.known().get(0).started()).isEqualTo(T0.plusSeconds(40));
  }

  @Test
  void theRowShowsWhenTheInstanceStartedAndLastBeat() {
    a.beat(ParkedSummary.NONE, null);
    clock.advance(Duration.ofSeconds(10));
    a.beat(ParkedSummary.NONE, null);

    InstanceRecord row = a.known().get(0);
    assertThat(row.started()).isEqualTo(T0);
    assertThat(row.lastBeat()).isEqualTo(T0.plusSeconds(10));
    assertThat(row.host()).isEqualTo("host-a");
    assertThat(a.lastBeat()).contains(T0.plusSeconds(10));
  }
}
