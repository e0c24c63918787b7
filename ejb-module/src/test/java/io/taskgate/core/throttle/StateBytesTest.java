package io.taskgate.core.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.WindowOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The throttle states written as bytes (as the data grid keeps them) and read back act the same.
 */
class StateBytesTest {
  private static final long NOON = Instant.parse("2026-11-26T12:00:00Z").toEpochMilli();

  interface Write {
    void to(DataOutput out) throws IOException;
  }

  interface Read<T> {
    T from(DataInput in) throws IOException;
  }

  static <T> T roundTrip(Write write, Read<T> read) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      write.to(out);
    }
    return read.from(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
  }

  @Test
  void holdersKeepTheirOwnersTasksAndOrder() throws IOException {
    Holders holders = new Holders();
    holders.acquire("batch-1", "a", 2);
    holders.acquire("batch-1", "b", 2);
    holders.acquire("t-ü", "c", 2);

    Holders read = roundTrip(holders::writeTo, Holders::readFrom);

    assertThat(read.view()).containsExactlyEntriesOf(holders.view());
    assertThat(read.acquire("d", "d", 2)).isEqualTo(Holders.Acquired.REFUSED);
    assertThat(read.acquire("batch-1", "a", 2)).isEqualTo(Holders.Acquired.REENTERED);
    assertThat(roundTrip(new Holders()::writeTo, Holders::readFrom).isEmpty()).isTrue();
  }

  @Test
  void windowCountsKeepTheirBuckets() throws IOException {
    WindowCounts counts = new WindowCounts();
    for (int i = 0; i < 5; i++) {
      counts.acquire(NOON + i * 1_000, 10, 1_000, 10);
    }

    WindowCounts read = roundTrip(counts::writeTo, WindowCounts::readFrom);

    assertThat(read.buckets(NOON + 4_000, 1_000, 10))
        .containsExactlyEntriesOf(counts.buckets(NOON + 4_000, 1_000, 10));
    assertThat(read.opensAt(NOON + 4_000, 5, 1_000, 10)).isEqualTo(NOON + 10_000);
  }

  @Test
  void aDynamicWindowKeepsItsSubWindowsActivityAndCap() throws IOException {
    WindowOptions options =
        WindowOptions.sliding(1, Duration.ofMinutes(1), 6).rebalanced(20, 2, 20);
    DynamicWindowState state = new DynamicWindowState(3);
    state.acquire("tenant-a", NOON, options);
    state.acquire("tenant-b", NOON + 1_000, options);
    state.acquire("tenant-b", NOON + 2_000, options);

    DynamicWindowState read = roundTrip(state::writeTo, DynamicWindowState::readFrom);

    assertThat(read.active()).containsExactly("tenant-a", "tenant-b");
    assertThat(read.counts(NOON + 2_000, options))
        .containsExactlyEntriesOf(state.counts(NOON + 2_000, options));
    assertThat(read.limitOf("tenant-b", options)).isEqualTo(10);
    read.acquire("tenant-c", NOON + 3_000, options);
    // at its cap of 3, all active: a fourth waits
    assertThat(read.acquire("tenant-d", NOON + 3_000, options).granted()).isFalse();
  }
}
