package io.taskgate.store.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.store.MinuteRecord;
import jakarta.persistence.EntityManagerFactory;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The per-minute history the instances share, on a real database: H2, then PostgreSQL. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class HistoryStoreContract {
  static final long M = 29_000_000L; // a minute since the epoch, in 2025

  private EntityManagerFactory factory;
  private Transactor tx;
  private JpaHistoryStore store;

  abstract EntityManagerFactory openFactory() throws Exception;

  abstract void dropDatabase() throws Exception;

  @BeforeAll
  void open() throws Exception {
    factory = openFactory();
    tx = new ResourceLocalTransactor(factory);
    store = new JpaHistoryStore(tx);
  }

  @AfterAll
  void close() throws Exception {
    if (factory != null) {
      factory.close();
    }
    dropDatabase();
  }

  @BeforeEach
  void emptyTable() {
    tx.inTransaction(em -> em.createQuery("DELETE FROM MinuteCountEntity m").executeUpdate());
  }

  static MinuteRecord row(String instance, long minute, String queue, String type, long base) {
    return new MinuteRecord(
        instance, minute, queue, type, base, base + 1, base + 2, base + 3, base + 4, base + 5,
        base + 6, base + 7, base + 8, base + 9, base + 10, base + 11);
  }

  @Test
  void aRowWrittenAgainIsReplacedNotAddedTo() {
    store.save(
        List.of(row("a", M, "default", "shop.Mail", 1), row("b", M, "default", "shop.Mail", 10)));
    store.save(
        List.of(
            row("a", M, "default", "shop.Mail", 4), row("a", M + 1, "default", "shop.Mail", 7)));

    assertThat(store.read(M, M + 1, Optional.empty()))
        .containsExactly(
            row("a", M, "default", "shop.Mail", 4),
            row("b", M, "default", "shop.Mail", 10),
            row("a", M + 1, "default", "shop.Mail", 7));
  }

  @Test
  void eachQueueAndTypeOfAMinuteIsARowOfItsOwn() {
    store.save(
        List.of(
            row("a", M, "default", "shop.Mail", 1),
            row("a", M, "mail", "shop.Mail", 2),
            row("a", M, "default", "shop.Sms", 3),
            row("a", M, "(other)", "(other)", 4)));

    assertThat(store.read(M, M, Optional.of("a")))
        .containsExactly(
            row("a", M, "(other)", "(other)", 4),
            row("a", M, "default", "shop.Mail", 1),
            row("a", M, "default", "shop.Sms", 3),
            row("a", M, "mail", "shop.Mail", 2));
  }

  @Test
  void aReadTakesTheMinutesAskedForBothEndsIncludedOfOneInstanceOrAll() {
    for (long minute = M - 2; minute <= M + 2; minute++) {
      store.save(
          List.of(row("a", minute, "q", "T", minute - M + 10), row("b", minute, "q", "T", 1)));
    }

    assertThat(store.read(M - 1, M + 1, Optional.of("b")))
        .extracting(MinuteRecord::epochMinute)
        .containsExactly(M - 1, M, M + 1);
    assertThat(store.read(M - 1, M + 1, Optional.empty())).hasSize(6);
    assertThat(store.read(M + 3, M + 9, Optional.empty())).isEmpty();
  }

  @Test
  void deletingBeforeAMinuteKeepsThatMinuteAndLaterOnes() {
    for (long minute = M - 3; minute <= M; minute++) {
      store.save(List.of(row("a", minute, "q", "T", 1)));
    }

    assertThat(store.deleteBefore(M - 1)).isEqualTo(2);
    assertThat(store.read(M - 10, M + 10, Optional.empty()))
        .extracting(MinuteRecord::epochMinute)
        .containsExactly(M - 1, M);
  }

  @Test
  void theLongestNamesTheTasksTableTakesFit() {
    String instance = "i".repeat(InstanceEntity.ID_LENGTH);
    String queue = "q|".repeat(TaskEntity.NAME_LENGTH / 2) + "q";
    String type = "t".repeat(TaskEntity.NAME_LENGTH);
    store.save(List.of(row(instance, M, queue, type, 1)));

    assertThat(store.read(M, M, Optional.of(instance)))
        .containsExactly(row(instance, M, queue, type, 1));
  }

  @Test
  void aRowWithoutAnInstanceIsRefusedNamingIt() {
    assertThatThrownBy(() -> store.save(List.of(row(" ", M, "q", "T", 1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("instance id")
        .hasMessageContaining("' '");
    assertThat(store.read(M, M, Optional.empty())).isEmpty();
  }
}
