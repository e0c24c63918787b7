package io.taskgate.engine.throttle.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskNote;
import io.taskgate.store.TaskStore;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The parking notes: the sentence written into a task's audit, and how they reach the store. */
class ParkingNotesTest {
  static final RateLimitPolicy POLICY = RateLimitPolicy.of(15, Duration.ofMinutes(1)).withBurst(1);

  static final Instant NOW = Instant.parse("2026-11-27T01:00:00Z");

  final List<List<TaskNote>> written = new ArrayList<>();
  final ParkingNotes notes;

  final TaskStore store;

  ParkingNotesTest() {
    store =
        (TaskStore)
            Proxy.newProxyInstance(
                TaskStore.class.getClassLoader(),
                new Class<?>[] {TaskStore.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("note")) {
                    @SuppressWarnings("unchecked")
                    List<TaskNote> batch = (List<TaskNote>) args[0];
                    written.add(List.copyOf(batch));
                    return null;
                  }
                  throw new AssertionError("the notes call only note(), not " + method.getName());
                });
    notes = new ParkingNotes(store, null, true);
  }

  /** Off (the default): a parking keeps nothing and writes nothing, now or later. */
  @Test
  void offTheNotesKeepAndWriteNothing() {
    ParkingNotes off = new ParkingNotes(store, null, false);
    StoredTask task =
        StoredTask.queued(UUID.randomUUID(), "a.Sync", "{}", "default", null, NOW, null, NOW);

    off.parked(task, "acme", NOW.plusSeconds(4), POLICY, NOW);
    assertThat(off.pending()).isZero();
    off.flush(Integer.MAX_VALUE);
    assertThat(written).isEmpty();
  }

  @Test
  void aParkedTaskIsNotedWithItsSlotKeyAndPolicyThenWrittenInOneBatch() {
    StoredTask task =
        StoredTask.queued(UUID.randomUUID(), "a.Sync", "{}", "default", null, NOW, null, NOW);
    Instant slot = NOW.plusNanos(4_250_123_456L);

    notes.parked(task, "acme", slot, POLICY, NOW);
    notes.parked(task, "acme", slot.plusSeconds(4), POLICY, NOW);
    assertThat(notes.pending()).isEqualTo(2);
    notes.flush();

    assertThat(written).hasSize(1);
    TaskNote first = written.get(0).get(0);
    assertThat(first.taskId()).isEqualTo(task.id());
    assertThat(first.taskVersion()).isEqualTo(task.version());
    assertThat(first.at()).isEqualTo(NOW);
    assertThat(first.detail())
        .isEqualTo(
            "Parked until 2026-11-27T01:00:04.250Z, the next free slot of key acme"
                + " (15 per 1 min, burst 1)");
    assertThat(notes.pending()).isZero();
    notes.flush();
    assertThat(written).as("nothing more to write").hasSize(1);
  }

  @Test
  void aBurstIsWrittenTwoBatchesATickAndWhollyWhenTheApplicationStops() {
    StoredTask task =
        StoredTask.queued(UUID.randomUUID(), "a.Sync", "{}", "default", null, NOW, null, NOW);
    int burst = ParkingNotes.BATCH * (ParkingNotes.BATCHES_PER_FLUSH + 1) + 1;
    for (int i = 0; i < burst; i++) {
      notes.parked(task, "acme", NOW.plusMillis(i), POLICY, NOW);
    }

    notes.flush();
    assertThat(written).hasSize(ParkingNotes.BATCHES_PER_FLUSH).allMatch(b -> b.size() == 1_000);
    assertThat(notes.pending()).isEqualTo(ParkingNotes.BATCH + 1);

    notes.stop();
    assertThat(written).hasSize(ParkingNotes.BATCHES_PER_FLUSH + 2);
    assertThat(written.get(written.size() - 1)).hasSize(1);
    assertThat(notes.pending()).isZero();
    assertThat(written.stream().flatMap(List::stream).map(TaskNote::detail).distinct())
        .as("each parking noted once")
        .hasSize(burst);
  }

  @Test
  void aTickWritesMoreThanTwoBatchesWhileOverHalfTheCapWaits() {
    StoredTask task =
        StoredTask.queued(UUID.randomUUID(), "a.Sync", "{}", "default", null, NOW, null, NOW);
    int backlog = ParkingNotes.MAX_PENDING / 2 + 5 * ParkingNotes.BATCH;
    for (int i = 0; i < backlog; i++) {
      notes.parked(task, "acme", NOW, POLICY, NOW);
    }

    notes.flush();

    assertThat(notes.pending()).isEqualTo(ParkingNotes.MAX_PENDING / 2);
    assertThat(written).hasSize(5);
  }
}
