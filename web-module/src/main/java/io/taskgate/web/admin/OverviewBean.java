package io.taskgate.web.admin;

import io.taskgate.core.task.TaskStatus;
import io.taskgate.engine.TaskAdmin;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The overview page: task counts by status. */
@Named("overview")
@RequestScoped
public class OverviewBean {
  @Inject TaskAdmin tasks;

  private Map<TaskStatus, Long> counts;

  /** Tasks by status, in the order of their life. */
  public Map<TaskStatus, Long> getCounts() {
    if (counts == null) {
      counts = new LinkedHashMap<>();
      for (TaskStatus status : TaskStatus.values()) {
        counts.put(
            status,
            tasks.list(Optional.of(status), Optional.empty(), Optional.empty(), 0, 1).total());
      }
    }
    return counts;
  }
}
