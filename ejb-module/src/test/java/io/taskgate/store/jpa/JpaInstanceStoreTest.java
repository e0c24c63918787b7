package io.taskgate.store.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.store.InstanceRecord;
import io.taskgate.store.ParkedSummary;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The instances' heartbeat rows on a real database (H2 in memory). */
class JpaInstanceStoreTest {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  EntityManagerFactory factory;
  JpaInstanceStore store;

  @BeforeEach
  void open() {
    factory = H2TestDatabase.inMemory("instances");
    store = new JpaInstanceStore(new ResourceLocalTransactor(factory));
  }

  @AfterEach
  void close() {
    factory.close();
  }

  static InstanceRecord instance(String id, Instant started) {
    return new InstanceRecord(id, "host-" + id, started, started, "1.0");
  }

  @Test
  void aFirstBeatInsertsTheRowAndLaterOnesMoveOnlyTheLastBeatForward() {
    store.beat(instance("b", T0), T0);
    store.beat(instance("a", T0), T0.plusSeconds(1));
    store.beat(instance("b", T0), T0.plusSeconds(10));
    store.beat(instance("b", T0), T0.plusSeconds(5)); // a late write never moves it back

    assertThat(store.instances())
        .containsExactly(
            new InstanceRecord("a", "host-a", T0, T0.plusSeconds(1), "1.0"),
            new InstanceRecord("b", "host-b", T0, T0.plusSeconds(10), "1.0"));
  }

  @Test
  void eachBeatCarriesWhatTheInstanceHasParkedForItsPeersToRead() {
    ParkedSummary parked =
        ParkedSummary.of(
            List.of(
                new ParkedSummary.Key("shop.Mail", "tenant a/ü", 3, T0.plusSeconds(2)),
                new ParkedSummary.Key("shop.Mail", "b", 1, T0.plusMillis(100))));
    store.beat(new InstanceRecord("a", "h", T0, T0, "1.0", parked, "member-1"), T0);
    assertThat(store.instances().get(0).parked()).isEqualTo(parked);
    assertThat(store.instances().get(0).gridMember()).isEqualTo("member-1");

    store.beat(
        new InstanceRecord("a", "h", T0, T0, "1.0", ParkedSummary.NONE, null), T0.plusSeconds(1));
    assertThat(store.instances().get(0).parked()).isEqualTo(ParkedSummary.NONE);
  }

  @Test
  void aStoppedInstanceLooksDeadAtOnceAndBeatsAgainWhenItComesBack() {
    store.beat(instance("a", T0), T0.plusSeconds(5));

    assertThat(store.markStopped("a")).isTrue();
    InstanceRecord stopped = store.instances().get(0);
    assertThat(stopped.lastBeat()).isEqualTo(Instant.EPOCH);
    assertThat(stopped.deadAt(T0, Duration.ofSeconds(30))).isTrue();
    assertThat(store.markStopped("nobody")).isFalse();

    store.beat(instance("a", T0.plusSeconds(60)), T0.plusSeconds(60));
    assertThat(store.instances().get(0).lastBeat()).isEqualTo(T0.plusSeconds(60));
  }

  @Test
  void aSilentInstanceIsRemovedOnlyIfItHasNotBeatenSince() {
    store.beat(instance("a", T0), T0);
    InstanceRecord seen = store.instances().get(0);
    store.beat(instance("a", T0), T0.plusSeconds(40)); // it came back meanwhile

    assertThat(store.removeIfSilent("a", seen.lastBeat())).isFalse();
    assertThat(store.instances()).hasSize(1);

    InstanceRecord now = store.instances().get(0);
    assertThat(store.removeIfSilent("a", now.lastBeat())).isTrue();
    assertThat(store.instances()).isEmpty();
  }

  @Test
  void anInstanceIsDeadOnceItsLastBeatIsOlderThanTheTimeout() {
    InstanceRecord a = new InstanceRecord("a", "h", T0, T0, "1.0");
    Duration timeout = Duration.ofSeconds(30);

    assertThat(a.deadAt(T0.plusSeconds(30), timeout)).isFalse();
    assertThat(a.deadAt(T0.plusSeconds(30).plusNanos(1), timeout)).isTrue();
  }

  @Test
  void anIdTooLongForTheColumnIsRefusedNamingIt() {
    String id = "x".repeat(65);
    assertThatThrownBy(() -> store.beat(instance(id, T0), T0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an instance id must be 1 to 64 characters, was '" + id + "'");
  }
}
