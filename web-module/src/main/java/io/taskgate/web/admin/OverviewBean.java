package io.taskgate.web.admin;

import io.taskgate.api.TaskStatus;
import io.taskgate.engine.admin.ThrottleViews;
import io.taskgate.engine.admin.dto.Overview;
import io.taskgate.engine.admin.dto.RateLimitQuery;
import io.taskgate.engine.admin.dto.RateLimitTotals;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The overview page: task counts by status, the queues, and the rate-limit totals. */
@Named("overview")
@RequestScoped
public class OverviewBean {
  @Inject ThrottleViews views;

  private Overview overview;
  private RateLimitTotals totals;

  /** Reads the views; called before every render (page load and live refresh). */
  public void load() {
    overview = views.overview();
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

  public RateLimitTotals getTotals() {
    return totals;
  }

  /** The statuses, in the order of a task's life. */
  public List<String> getStatuses() {
    return Arrays.stream(TaskStatus.values()).map(Enum::name).toList();
  }
}
