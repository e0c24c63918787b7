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
 * @param limiter where this instance's rate-limit budgets live, and how the grid answers
 */
public record ClusterView(
    String self,
    String heartbeatInterval,
    String instanceTimeout,
    List<Member> instances,
    Limiter limiter) {

  /** The view; the durations are written in ISO-8601. */
  public static ClusterView of(
      String self,
      Duration heartbeatInterval,
      Duration instanceTimeout,
      List<Member> instances,
      Limiter limiter) {
    return new ClusterView(
        self,
        heartbeatInterval.toString(),
        instanceTimeout.toString(),
        List.copyOf(instances),
        limiter);
  }

  /**
   * This instance's rate limiter.
   *
   * @param mode {@code local} (budgets in this instance's memory) or {@code grid} (one budget per
   *     key in the data grid)
   * @param degraded whether the grid does not answer now and this instance decides locally
   * @param degradedSince when the current degraded mode began; null when not degraded
   * @param degradations how many times the grid stopped answering since this instance started
   * @param localDecisions rate-limit decisions taken locally while the grid did not answer
   * @param share while degraded, each key gets 1/share of its rate here
   * @param gridTimeout how long a call waits for the grid (ISO-8601); null for a local limiter
   * @param outsideGrid live instances sharing the database but not this grid (they spend budgets of
   *     their own; this instance is degraded meanwhile); empty when there are none
   */
  public record Limiter(
      String mode,
      boolean degraded,
      Instant degradedSince,
      long degradations,
      long localDecisions,
      int share,
      String gridTimeout,
      List<String> outsideGrid) {

    /** The limiter of an instance whose budgets are local. */
    public static final Limiter LOCAL = new Limiter("local", false, null, 0, 0, 1, null, List.of());
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
   * @param inProgressTasks tasks it holds IN_PROGRESS (owner counts, from the database)
   * @param parkedTasks tasks it has parked until their slot (the answering instance's now, a peer's
   *     as of its last beat)
   * @param parkedKeys keys with parked tasks there (same moment)
   * @param gridMember its member of the data grid holding its budgets; null when they are local
   */
  public record Member(
      String id,
      String host,
      Instant startedAt,
      Instant lastBeat,
      String version,
      boolean alive,
      boolean self,
      long inProgressTasks,
      int parkedTasks,
      int parkedKeys,
      String gridMember) {}
}
