package io.taskgate.engine.admin;

import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.engine.admin.dto.ClusterView;
import io.taskgate.engine.cluster.ClusterSettings;
import io.taskgate.engine.cluster.Instances;
import io.taskgate.engine.cluster.grid.GridState;
import io.taskgate.store.InstanceRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;

/** The instances sharing the database, for the REST API and the admin page. */
@ApplicationScoped
public class ClusterViews {
  @Inject Instances instances;
  @Inject ClusterSettings settings;
  @Inject InstantSource clock;
  @Inject GridState grid;

  /** Every instance as of this instance's last heartbeat, each alive or not at this moment. */
  public ClusterView cluster() {
    Instant now = clock.instant();
    List<ClusterView.Member> members =
        instances.known().stream()
            .map(
                (InstanceRecord i) ->
                    new ClusterView.Member(
                        i.id(),
                        i.host(),
                        i.started(),
                        i.lastBeat(),
                        i.version(),
                        !i.deadAt(now, settings.instanceTimeout()),
                        i.id().equals(instances.self())))
            .toList();
    return ClusterView.of(
        instances.self(),
        settings.heartbeatInterval(),
        settings.instanceTimeout(),
        members,
        limiter());
  }

  private ClusterView.Limiter limiter() {
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
                    s.budget().toString()))
        .orElse(ClusterView.Limiter.LOCAL);
  }
}
