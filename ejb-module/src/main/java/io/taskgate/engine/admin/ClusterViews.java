package io.taskgate.engine.admin;

import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.engine.admin.dto.ClusterView;
import io.taskgate.engine.cluster.ClusterSettings;
import io.taskgate.engine.cluster.Instances;
import io.taskgate.engine.cluster.grid.GridState;
import io.taskgate.engine.throttle.RateLimitReads;
import io.taskgate.store.InstanceRecord;
import io.taskgate.store.ParkedSummary;
import io.taskgate.store.TaskQueries;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;

/** The instances sharing the database, for the REST API and the admin page. */
@ApplicationScoped
public class ClusterViews {
  @Inject Instances instances;
  @Inject ClusterSettings settings;
  @Inject InstantSource clock;
  @Inject GridState grid;
  @Inject TaskQueries queries;
  @Inject RateLimitReads rateLimits;

  /**
   * Every instance as of this instance's last heartbeat, each alive or not at this moment, with the
   * tasks it holds in progress (read now) and what it has parked (this instance's now, a peer's as
   * of its last beat).
   */
  public ClusterView cluster() {
    Instant now = clock.instant();
    Map<String, Long> inProgress = queries.countInProgressByOwner();
    List<ClusterView.Member> members =
        instances.known().stream()
            .map(
                (InstanceRecord i) -> {
                  boolean self = i.id().equals(instances.self());
                  ParkedSummary parked = self ? rateLimits.parkedSummary() : i.parked();
                  return new ClusterView.Member(
                      i.id(),
                      i.host(),
                      i.started(),
                      i.lastBeat(),
                      i.version(),
                      !i.deadAt(now, settings.instanceTimeout()),
                      self,
                      inProgress.getOrDefault(i.id(), 0L),
                      parked.tasks(),
                      parked.keys(),
                      i.gridMember());
                })
            .toList();
    return ClusterView.of(
        instances.self(),
        settings.heartbeatInterval(),
        settings.instanceTimeout(),
        members,
        limiter());
  }

  /** This instance's identity. */
  public String self() {
    return instances.self();
  }

  /** Where this instance's budgets live and how the grid answers; no database read. */
  public ClusterView.Limiter limiter() {
    return grid.status()
        .map(
            s ->
                new ClusterView.Limiter(
                    "grid",
                    s.degraded(),
                    s.degraded() ? EpochNanos.toInstant(s.degradedSinceEpochNanos()) : null,
                    s.degradations(),
                    s.fallbackDecisions(),
                    s.share(),
                    s.budget().toString(),
                    s.outside()))
        .orElse(ClusterView.Limiter.LOCAL);
  }
}
