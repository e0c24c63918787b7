package io.taskgate.engine.admin.dto;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The engine instances sharing the database, as this instance last read them.
 *
 * @param self this instance's identity
 * @param heartbeatInterval how often each instance writes its heartbeat (ISO-8601)
 * @param instanceTimeout how old a last beat may be before its instance counts as dead (ISO-8601)
 * @param instances every instance with a row, in the order of their ids
 */
public record ClusterView(
    String self, String heartbeatInterval, String instanceTimeout, List<Member> instances) {

  /** The view; the durations are written in ISO-8601. */
  public static ClusterView of(
      String self, Duration heartbeatInterval, Duration instanceTimeout, List<Member> instances) {
    return new ClusterView(
        self, heartbeatInterval.toString(), instanceTimeout.toString(), List.copyOf(instances));
  }

  /**
   * One instance.
   *
   * @param id its identity
   * @param host the host it runs on
   * @param startedAt when it started
   * @param lastBeat when it last wrote its heartbeat
   * @param version the Taskgate version it runs
   * @param alive whether its last beat is within the instance timeout
   * @param self whether it is the instance answering
   */
  public record Member(
      String id,
      String host,
      Instant startedAt,
      Instant lastBeat,
      String version,
      boolean alive,
      boolean self) {}
}
