package io.taskgate.web.admin;

import io.taskgate.api.TaskStatus;
import io.taskgate.engine.admin.ClusterViews;
import io.taskgate.engine.admin.ThrottleViews;
import io.taskgate.engine.admin.dto.ClusterView;
import io.taskgate.engine.admin.dto.Overview;
import io.taskgate.engine.admin.dto.RateLimitQuery;
import io.taskgate.engine.admin.dto.RateLimitTotals;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The overview page: task counts by status, the queues, the rate-limit totals, and the instances
 * sharing the database.
 */
@Named("overview")
@RequestScoped
public class OverviewBean {
  @Inject ThrottleViews views;
  @Inject ClusterViews clusterViews;

  private Overview overview;
  private ClusterView cluster;
  private RateLimitTotals totals;

  /** Reads the views; called before every render (page load and live refresh). */
  public void load() {
    overview = views.overview();
    cluster = clusterViews.cluster();
    totals =
        views
            .rateLimits(
                new RateLimitQuery(
                    Optional.empty(),
                    Optional.empty(),
                    true,
                    io.taskgate.engine.admin.dto.RateLimitSort.KEY,
                    false,
                    0,
                    1))
            .totals();
  }

  public Overview getOverview() {
    return overview;
  }

  /** The instances sharing the database and this instance's limiter. */
  public ClusterView getCluster() {
    return cluster;
  }

  public RateLimitTotals getTotals() {
    return totals;
  }

  /** The statuses, in the order of a task's life. */
  public List<String> getStatuses() {
    return Arrays.stream(TaskStatus.values()).map(Enum::name).toList();
  }
}
