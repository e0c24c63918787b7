package io.taskgate.store.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.PauseScope;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.store.Pause;
import io.taskgate.store.ThrottlerChange;
import jakarta.persistence.EntityManagerFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The pauses in force and their change log, on a real database: H2, then PostgreSQL. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class PauseStoreContract {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  private EntityManagerFactory factory;
  private Transactor tx;
  private JpaPauseStore store;
  private JpaThrottlerStore changes;

  abstract EntityManagerFactory openFactory() throws Exception;

  abstract void dropDatabase() throws Exception;

  @BeforeAll
  void open() throws Exception {
    factory = openFactory();
    tx = new ResourceLocalTransactor(factory);
    store = new JpaPauseStore(tx);
    changes = new JpaThrottlerStore(tx);
  }

  @AfterAll
  void close() throws Exception {
    if (factory != null) {
      factory.close();
    }
    dropDatabase();
  }

  @BeforeEach
  void emptyTables() {
    tx.inTransaction(em -> em.createQuery("DELETE FROM PauseEntity p").executeUpdate());
    tx.inTransaction(em -> em.createQuery("DELETE FROM ThrottlerChangeEntity c").executeUpdate());
  }

  @Test
  void aPauseIsStoredReadBackAndResumedEachChangeLoggedWithWhoAndWhy() {
    Pause emails = new Pause(PauseScope.QUEUE, "emails", T0, "alice", "mail server down");
    Pause tenant = new Pause(PauseScope.KEY, "tenant/7 café", T0.plusSeconds(1), "bob", null);

    assertThat(store.pause(emails)).isEmpty();
    assertThat(store.pause(tenant)).isEmpty();
    assertThat(store.pauses()).containsExactly(emails, tenant);

    assertThat(store.resume(PauseScope.QUEUE, "emails", "carol", T0.plusSeconds(5)))
        .contains(emails);
    assertThat(store.resume(PauseScope.QUEUE, "emails", "carol", T0.plusSeconds(6))).isEmpty();
    assertThat(store.pauses()).containsExactly(tenant);
    assertThat(changes.changes(10))
        .containsExactly(
            new ThrottlerChange(
                T0.plusSeconds(5),
                "carol",
                ThrottlerKind.PAUSE,
                "queue emails",
                "paused by alice: mail server down",
                null),
            new ThrottlerChange(
                T0.plusSeconds(1),
                "bob",
                ThrottlerKind.PAUSE,
                "key tenant/7 café",
                null,
                "paused by bob"),
            new ThrottlerChange(
                T0,
                "alice",
                ThrottlerKind.PAUSE,
                "queue emails",
                null,
                "paused by alice: mail server down"));
  }

  @Test
  void pausingWhatIsPausedKeepsTheFirstPauseAndLogsNothing() {
    Pause first = new Pause(PauseScope.TYPE, "shop.Mail", T0, "alice", "first");

    store.pause(first);

    assertThat(store.pause(new Pause(PauseScope.TYPE, "shop.Mail", T0.plusSeconds(9), "bob", "2")))
        .contains(first);
    assertThat(store.pauses()).containsExactly(first);
    assertThat(changes.changes(10)).hasSize(1);
  }

  @Test
  void theSameNameInAnotherScopeOrCaseIsAnotherPause() {
    store.pause(new Pause(PauseScope.QUEUE, "acme", T0, "a", null));
    store.pause(new Pause(PauseScope.KEY, "acme", T0, "a", null));
    store.pause(new Pause(PauseScope.KEY, "ACME", T0, "a", null));

    assertThat(store.pauses())
        .extracting(Pause::describe)
        .containsExactly("queue acme", "key ACME", "key acme");
  }

  @Test
  void aLongKeyAndReasonAreKeptAsLongAsTheLimitsAllowAndTheLogIsCut() {
    String key = "k".repeat(Pause.MAX_NAME_LENGTH);
    String reason = "r".repeat(Pause.MAX_REASON_LENGTH);

    store.pause(new Pause(PauseScope.KEY, key, T0, "alice", reason));

    assertThat(store.pauses().get(0).name()).isEqualTo(key);
    assertThat(store.pauses().get(0).reason()).isEqualTo(reason);
    ThrottlerChange logged = changes.changes(1).get(0);
    assertThat(logged.id()).hasSize(100).endsWith("…");
    assertThat(logged.after()).hasSize(255).endsWith("…");
  }

  @Test
  void twoPausingAtOnceStoreOnePauseAndTheOtherGetsIt() throws Exception {
    ExecutorService two = Executors.newFixedThreadPool(2);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Optional<Pause>>> answers = new ArrayList<>();
      for (String by : List.of("a", "b")) {
        answers.add(
            two.submit(
                () -> {
                  go.await();
                  return store.pause(new Pause(PauseScope.QUEUE, "emails", T0, by, null));
                }));
      }
      go.countDown();
      List<Optional<Pause>> got = new ArrayList<>();
      for (Future<Optional<Pause>> answer : answers) {
        got.add(answer.get());
      }
      assertThat(store.pauses()).hasSize(1);
      assertThat(got.stream().filter(Optional::isEmpty)).as("the one that stored it").hasSize(1);
      String stored = store.pauses().get(0).by();
      got.stream().flatMap(Optional::stream).forEach(p -> assertThat(p.by()).isEqualTo(stored));
    } finally {
      two.shutdownNow();
    }
  }
}
