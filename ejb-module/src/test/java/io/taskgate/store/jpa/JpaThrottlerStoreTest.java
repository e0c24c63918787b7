package io.taskgate.store.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.ThrottlerKind;
import io.taskgate.store.ThrottlerChange;
import io.taskgate.store.ThrottlerRecord;
import io.taskgate.store.ThrottlerStore;
import jakarta.persistence.EntityManagerFactory;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Semaphore and window definitions and their change log on a real database (H2 in memory). */
class JpaThrottlerStoreTest {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  EntityManagerFactory factory;
  JpaThrottlerStore store;

  @BeforeEach
  void open() {
    factory = H2TestDatabase.inMemory("throttlers");
    store = new JpaThrottlerStore(new ResourceLocalTransactor(factory));
  }

  @AfterEach
  void close() {
    factory.close();
  }

  static ThrottlerRecord semaphore(String id, int max) {
    return new ThrottlerRecord(ThrottlerKind.SEMAPHORE, id, max, 0, 0, 0, 0, 0);
  }

  @Test
  void aDefinitionIsAddedChangedAndRemovedEachChangeAuditedWithWhoAndOldToNew() {
    assertThat(store.put(semaphore("newsletter", 3), "alice", T0)).isEmpty();
    assertThat(store.put(semaphore("newsletter", 5), "bob", T0.plusSeconds(1)))
        .contains(semaphore("newsletter", 3));
    assertThat(store.remove(ThrottlerKind.SEMAPHORE, "newsletter", "carol", T0.plusSeconds(2)))
        .contains(semaphore("newsletter", 5));

    assertThat(store.definitions()).isEmpty();
    assertThat(store.changes(10))
        .containsExactly(
            new ThrottlerChange(
                T0.plusSeconds(2),
                "carol",
                ThrottlerKind.SEMAPHORE,
                "newsletter",
                "maxCount=5",
                null),
            new ThrottlerChange(
                T0.plusSeconds(1),
                "bob",
                ThrottlerKind.SEMAPHORE,
                "newsletter",
                "maxCount=3",
                "maxCount=5"),
            new ThrottlerChange(
                T0, "alice", ThrottlerKind.SEMAPHORE, "newsletter", null, "maxCount=3"));
  }

  @Test
  void addingTheSameDefinitionAgainChangesNothingAndAuditsNothing() {
    ThrottlerRecord window =
        new ThrottlerRecord(
            ThrottlerKind.DYNAMIC_WINDOW, "newsletter", 20, 3_600_000, 60, 20, 2, 20);
    store.put(window, "app", T0);

    assertThat(store.put(window, "app", T0.plusSeconds(5))).contains(window);

    assertThat(store.changes(10)).hasSize(1);
    assertThat(store.changes(10).get(0).after())
        .isEqualTo("limit=20 interval=PT1H buckets=60 capacity=20 minLimit=2 maxLimit=20");
    assertThat(store.definitions()).containsExactly(window);
  }

  @Test
  void kindsKeepTheirOwnIdsAndRemovingWhatIsNotThereIsANoOp() {
    store.put(semaphore("github", 2), "app", T0);
    ThrottlerRecord fixed =
        new ThrottlerRecord(ThrottlerKind.FIXED_WINDOW, "github", 5_000, 3_600_000, 1, 0, 0, 0);
    store.put(fixed, "app", T0);

    assertThat(store.definitions()).containsExactly(semaphore("github", 2), fixed);
    assertThat(store.remove(ThrottlerKind.SLIDING_WINDOW, "github", "app", T0)).isEmpty();
    assertThat(store.changes(10)).hasSize(2);
  }

  @Test
  void windowCountsAddUpPerBucketAndOldOnesAreDropped() {
    long t = T0.toEpochMilli();
    store.addCount("fixed-window:github", null, t, 1);
    store.addCount("fixed-window:github", null, t, 1);
    store.addCount("fixed-window:github", null, t, -1);
    store.addCount("fixed-window:github", null, t + 1_000, 1);
    store.addCount("dynamic-window:news", "tenant-1", t, 1);

    assertThat(store.counts(t))
        .containsExactlyInAnyOrder(
            new ThrottlerStore.WindowCount("fixed-window:github", null, t, 1),
            new ThrottlerStore.WindowCount("fixed-window:github", null, t + 1_000, 1),
            new ThrottlerStore.WindowCount("dynamic-window:news", "tenant-1", t, 1));
    assertThat(store.counts(t + 1)).hasSize(1);
    assertThat(store.dropCounts(t + 1)).isEqualTo(2);
    assertThat(store.counts(0)).hasSize(1);
  }

  @Test
  void rateLimitChangesAreStoredPerTypeAndKeyAndAudited() {
    ThrottlerStore.RateOverride type =
        new ThrottlerStore.RateOverride("com.acme.Sync", null, 30, 60_000_000_000L, 10);
    ThrottlerStore.RateOverride key =
        new ThrottlerStore.RateOverride("com.acme.Sync", "tenant/1", 5, 60_000_000_000L, 1);
    assertThat(store.putRateOverride(type, "alice", T0)).isEmpty();
    store.putRateOverride(key, "alice", T0.plusMillis(500));
    assertThat(store.putRateOverride(type, "alice", T0)).contains(type);

    assertThat(store.rateOverrides()).containsExactlyInAnyOrder(type, key);
    assertThat(store.removeRateOverride("com.acme.Sync", "tenant/1", "bob", T0.plusSeconds(1)))
        .contains(key);
    assertThat(store.rateOverrides()).containsExactly(type);
    assertThat(store.changes(10))
        .extracting(c -> c.by() + " " + c.id() + ": " + c.before() + " -> " + c.after())
        .containsExactly(
            "bob Sync key tenant/1: permits=5 period=PT1M burst=1 -> null",
            "alice Sync key tenant/1: null -> permits=5 period=PT1M burst=1",
            "alice Sync: null -> permits=30 period=PT1M burst=10");
  }
}
