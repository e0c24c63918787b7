package io.taskgate.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One engine instance as the shared database knows it: its identity, where it runs, when it started
 * and when it last said it was alive.
 *
 * @param id the instance's identity, unique among the instances sharing the database
 * @param host the host it runs on, for people reading the view
 * @param started when it started
 * @param lastBeat when it last beat
 * @param version the Taskgate version it runs
 * @param parked what it had parked at its last beat
 * @param gridMember its member of the data grid that holds its rate-limit budgets; null when they
 *     are local
 */
public record InstanceRecord(
    String id,
    String host,
    Instant started,
    Instant lastBeat,
    String version,
    ParkedSummary parked,
    String gridMember) {

  /** An instance with nothing parked, its budgets local. */
  public InstanceRecord(String id, String host, Instant started, Instant lastBeat, String version) {
    this(id, host, started, lastBeat, version, ParkedSummary.NONE, null);
  }

  /** Checks that every field is there. */
  public InstanceRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(started, "started");
    Objects.requireNonNull(lastBeat, "lastBeat");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(parked, "parked");
  }

  /** Whether its last beat is older than {@code timeout} at {@code now}: it is then dead. */
  public boolean deadAt(Instant now, Duration timeout) {
    return lastBeat.plus(timeout).isBefore(now);
  }
}
