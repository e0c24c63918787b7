package io.taskgate.web.admin;

import io.taskgate.api.TaskStatus;
import io.taskgate.engine.admin.ClusterViews;
import io.taskgate.engine.admin.StatsViews;
import io.taskgate.engine.admin.ThrottleViews;
import io.taskgate.engine.admin.dto.ClusterView;
import io.taskgate.engine.admin.dto.Overview;
import io.taskgate.engine.admin.dto.RateLimitPage;
import io.taskgate.engine.admin.dto.RateLimitQuery;
import io.taskgate.engine.admin.dto.RateLimitRow;
import io.taskgate.engine.admin.dto.RateLimitSort;
import io.taskgate.engine.admin.dto.RateLimitTotals;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The overview page: task counts by status, the most throttled keys with when each drains, what was
 * rejected and why, the last hour minute by minute, the queues, the rate-limit totals, and the
 * instances sharing the database.
 */
@Named("overview")
@RequestScoped
public class OverviewBean {
  /** How many throttled keys the overview lists. */
  static final int TOP_KEYS = 10;

  @Inject ThrottleViews views;
  @Inject ClusterViews clusterViews;
  @Inject StatsViews statsViews;

  private Overview overview;
  private ClusterView cluster;
  private RateLimitTotals totals;
  private List<RateLimitRow> topKeys;
  private long throttledKeyCount;
  private LastHour lastHour;

  /** Reads the views; called before every render (page load and live refresh). */
  public void load() {
    overview = views.overview();
    cluster = clusterViews.cluster();
    RateLimitPage top =
        views.rateLimits(
            new RateLimitQuery(
                Optional.empty(), Optional.empty(), true, RateLimitSort.PARKED, true, 0, TOP_KEYS));
    totals = top.totals();
    topKeys = top.items();
    throttledKeyCount = top.total();
    lastHour =
        new LastHour(
            statsViews.stats(StatsViews.DEFAULT_MINUTES, Optional.empty(), Optional.empty()),
            LastHour.TASKS);
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

  /** The throttled keys with the most parked tasks, at most {@link #TOP_KEYS}. */
  public List<RateLimitRow> getTopKeys() {
    return topKeys;
  }

  /** How many keys are throttled in all (the top ones are listed). */
  public long getThrottledKeyCount() {
    return throttledKeyCount;
  }

  /** The last hour of the instances sharing the database, minute by minute. */
  public LastHour getLastHour() {
    return lastHour;
  }

  /** The statuses, in the order of a task's life. */
  public List<String> getStatuses() {
    return Arrays.stream(TaskStatus.values()).map(Enum::name).toList();
  }
}
