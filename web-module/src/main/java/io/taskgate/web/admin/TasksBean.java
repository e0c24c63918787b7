package io.taskgate.web.admin;

import io.taskgate.api.TaskStatus;
import io.taskgate.api.UnknownTaskTypeException;
import io.taskgate.engine.admin.TaskAdmin;
import io.taskgate.engine.admin.ThrottleViews;
import io.taskgate.engine.admin.dto.Overview;
import io.taskgate.engine.admin.dto.TaskViewPage;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The tasks page: tasks newest first, filtered by status, type, queue and rate-limit key (query
 * parameters, so a filtered list can be bookmarked and survives a reload), a page at a time.
 */
@Named("tasks")
@ViewScoped
public class TasksBean implements Serializable {
  private static final long serialVersionUID = 1L;
  static final int PAGE_SIZE = 25;

  @Inject TaskAdmin admin;
  @Inject ThrottleViews views;

  private String status;
  private String type;
  private String queue;
  private String key;
  private String throttled;
  private String sort;
  private int page;

  private transient TaskViewPage found;
  private transient String problem;

  /** Reads the page of tasks; called before every render (page load and live refresh). */
  public void load() {
    problem = null;
    found = null;
    Optional<TaskStatus> wanted = Optional.empty();
    if (status != null && !status.isBlank()) {
      try {
        wanted = Optional.of(TaskStatus.valueOf(status.strip().toUpperCase(Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        problem = "Unknown status: " + status;
        return;
      }
    }
    try {
      if (throttled != null && !throttled.isBlank()) {
        found =
            admin.listThrottled(
                TaskAdmin.Throttled.parse(throttled),
                text(type),
                text(queue),
                exact(key),
                Math.max(page, 0),
                PAGE_SIZE);
        return;
      }
      TaskAdmin.Order order = TaskAdmin.Order.parse(sort);
      found =
          admin.list(
              wanted, text(type), text(queue), exact(key), order, Math.max(page, 0), PAGE_SIZE);
    } catch (UnknownTaskTypeException e) {
      problem = "Unknown task type: " + type;
    } catch (IllegalArgumentException e) {
      problem = "The filter " + e.getMessage() + "."; // names the filter, its values and the text
    }
  }

  /** A key as typed: exactly, spaces included, if anything was typed. */
  private static Optional<String> exact(String value) {
    return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
  }

  public String getSort() {
    return sort;
  }

  public void setSort(String sort) {
    this.sort = sort;
  }

  public String getThrottled() {
    return throttled;
  }

  public void setThrottled(String throttled) {
    this.throttled = throttled;
  }

  public String getKey() {
    return key;
  }

  public void setKey(String key) {
    this.key = key;
  }

  private static Optional<String> text(String value) {
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
  }

  public TaskViewPage getFound() {
    return found;
  }

  public String getProblem() {
    return problem;
  }

  /** The last page's number (from 0). */
  public long getLastPage() {
    return found == null || found.total() == 0 ? 0 : (found.total() - 1) / PAGE_SIZE;
  }

  public List<String> getStatuses() {
    return Arrays.stream(TaskStatus.values()).map(Enum::name).toList();
  }

  public List<String> getTypes() {
    return admin.taskTypes();
  }

  public List<String> getQueues() {
    return views.overview().queues().stream().map(Overview.QueueOverview::name).toList();
  }

  public String getStatus() {
    return status;
  }

  public void setStatus(String status) {
    this.status = status;
  }

  public String getType() {
    return type;
  }

  public void setType(String type) {
    this.type = type;
  }

  public String getQueue() {
    return queue;
  }

  public void setQueue(String queue) {
    this.queue = queue;
  }

  public int getPage() {
    return page;
  }

  public void setPage(int page) {
    this.page = page;
  }
}
