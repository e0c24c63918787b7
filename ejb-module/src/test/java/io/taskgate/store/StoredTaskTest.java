package io.taskgate.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.TaskStatus;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class StoredTaskTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static final StoredTask TASK =
      new StoredTask(
          UUID.fromString("00000000-0000-0000-0000-000000000001"),
          "com.acme.Sync",
          "{}",
          TaskStatus.IN_PROGRESS,
          "default",
          "key-1",
          T0.plusSeconds(1),
          2,
          "boom",
          "every=PT1M",
          3,
          T0,
          T0.plusSeconds(2),
          7,
          "instance-a",
          "tenant-1",
          "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");

  @Test
  void eachCopyChangesItsOwnFieldAndKeepsEveryOther() {
    Instant later = T0.plusSeconds(60);

    assertThat(TASK.withRateKey("tenant-2")).isEqualTo(with(TASK, 15, "tenant-2"));
    assertThat(TASK.withStatus(TaskStatus.QUEUED)).isEqualTo(with(TASK, 3, TaskStatus.QUEUED));
    assertThat(TASK.withPayload("{\"a\":1}")).isEqualTo(with(TASK, 2, "{\"a\":1}"));
    assertThat(TASK.withScheduledAt(later)).isEqualTo(with(TASK, 6, later));
    assertThat(TASK.withAttempt(5)).isEqualTo(with(TASK, 7, 5));
    assertThat(TASK.withLastError(null)).isEqualTo(with(TASK, 8, null));
    assertThat(TASK.withRuns(4L)).isEqualTo(with(TASK, 10, 4L));
    assertThat(TASK.withOwner(null)).isEqualTo(with(TASK, 14, null));
    assertThat(TASK.withTraceParent(null)).isEqualTo(with(TASK, 16, null));
  }

  @Test
  void copiesChainAndLeaveTheOriginalAsItWas() {
    StoredTask requeued =
        TASK.withStatus(TaskStatus.QUEUED).withAttempt(0).withLastError(null).withOwner("b");

    assertThat(requeued.status()).isEqualTo(TaskStatus.QUEUED);
    assertThat(requeued.attempt()).isZero();
    assertThat(requeued.lastError()).isNull();
    assertThat(requeued.owner()).isEqualTo("b");
    assertThat(requeued.version()).isEqualTo(7);
    assertThat(TASK.status()).isEqualTo(TaskStatus.IN_PROGRESS);
    assertThat(TASK.owner()).isEqualTo("instance-a");
  }

  /** {@code task} with its component number {@code index} (from 0) set to {@code value}. */
  private static StoredTask with(StoredTask task, int index, Object value) {
    Object[] values = {
      task.id(),
      task.type(),
      task.payload(),
      task.status(),
      task.queue(),
      task.taskKey(),
      task.scheduledAt(),
      task.attempt(),
      task.lastError(),
      task.recurrence(),
      task.runs(),
      task.createdAt(),
      task.updatedAt(),
      task.version(),
      task.owner(),
      task.rateKey(),
      task.traceParent()
    };
    values[index] = value;
    return new StoredTask(
        (UUID) values[0],
        (String) values[1],
        (String) values[2],
        (TaskStatus) values[3],
        (String) values[4],
        (String) values[5],
        (Instant) values[6],
        (int) values[7],
        (String) values[8],
        (String) values[9],
        (long) values[10],
        (Instant) values[11],
        (Instant) values[12],
        (long) values[13],
        (String) values[14],
        (String) values[15],
        (String) values[16]);
  }
}
