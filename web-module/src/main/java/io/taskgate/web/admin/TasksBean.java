package io.taskgate.web.admin;

import io.taskgate.api.TaskStatus;
import io.taskgate.api.UnknownTaskTypeException;
import io.taskgate.engine.admin.TaskAdmin;
import io.taskgate.engine.admin.TaskMaintenance;
import io.taskgate.engine.admin.ThrottleViews;
import io.taskgate.engine.admin.dto.EndedTasks;
import io.taskgate.engine.admin.dto.Overview;
import io.taskgate.engine.admin.dto.TaskViewPage;
import io.taskgate.web.security.Roles;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.security.enterprise.SecurityContext;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

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
  @Inject TaskMaintenance maintenance;
  @Inject SecurityContext security;

  private String status;
  private String type;
  private String queue;
  private String key;
  private String throttled;
  private String sort;
  private int page;

  private transient TaskViewPage found;
  private transient String problem;
  private boolean confirmingRequeue;
  private boolean confirmingDelete;
  private long deleteCount;
  private String deleteMessage;
  private long requeueCount;
  private String requeueMessage;

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

  /**
   * Whether the list's filters select ended tasks that can be queued again, all at once: status
   * FAILED or CANCELLED, and no throttled filter (those are QUEUED ones, or a rejection's subset).
   */
  public boolean isRequeueable() {
    return requeueSelection().isPresent() && found != null && found.total() > 0;
  }

  private Optional<EndedTasks> requeueSelection() {
    return endedSelection().filter(e -> TaskMaintenance.REQUEUEABLE.containsAll(e.statuses()));
  }

  /** The ended tasks the list's filters select: an ended status, and no throttled filter. */
  private Optional<EndedTasks> endedSelection() {
    if (status == null || (throttled != null && !throttled.isBlank())) {
      return Optional.empty();
    }
    TaskStatus wanted;
    try {
      wanted = TaskStatus.valueOf(status.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (!wanted.terminal()) {
      return Optional.empty();
    }
    return Optional.of(
        new EndedTasks(
            Set.of(wanted),
            text(type),
            text(queue),
            exact(key),
            Optional.empty(),
            Optional.empty(),
            Optional.empty()));
  }

  /** Whether the list's filters select ended tasks, which can be deleted all at once. */
  public boolean isDeletable() {
    return endedSelection().isPresent() && found != null && found.total() > 0;
  }

  /** Asks the admin to confirm deleting every task the filters select; counts them. */
  public void askDelete() {
    deleteMessage = null;
    Optional<EndedTasks> selection = endedSelection();
    if (selection.isEmpty()) {
      deleteMessage = "Filter by status COMPLETED, FAILED or CANCELLED first.";
      return;
    }
    try {
      deleteCount = maintenance.count(selection.get());
      confirmingDelete = true;
    } catch (UnknownTaskTypeException e) {
      deleteMessage = "Unknown task type: " + type + ".";
    }
  }

  /** The admin changed their mind. */
  public void keepTasks() {
    confirmingDelete = false;
  }

  /** Deletes every task the filters select with its audit, once confirmed; says how many. */
  public void deleteAll() {
    confirmingDelete = false;
    if (!security.isCallerInRole(Roles.ADMIN)) {
      deleteMessage = "Only an admin may delete tasks.";
      return;
    }
    Optional<EndedTasks> selection = endedSelection();
    if (selection.isEmpty()) {
      deleteMessage = "Filter by status COMPLETED, FAILED or CANCELLED first.";
      return;
    }
    try {
      TaskMaintenance.Bulk bulk =
          maintenance.deleteAll(
              selection.get(), security.getCallerPrincipal().getName() + " on the admin page");
      deleteMessage =
          (bulk.done() == 1 ? "1 task was" : bulk.done() + " tasks were")
              + " deleted, with their audit."
              + (bulk.more() ? " More match: delete again for the next ones." : "");
    } catch (UnknownTaskTypeException e) {
      deleteMessage = "Unknown task type: " + type + ".";
    }
  }

  public boolean isConfirmingDelete() {
    return confirmingDelete;
  }

  public long getDeleteCount() {
    return deleteCount;
  }

  public String getDeleteMessage() {
    return deleteMessage;
  }

  /** Asks the admin to confirm queuing every task the filters select again; counts them. */
  public void askRequeue() {
    requeueMessage = null;
    Optional<EndedTasks> selection = requeueSelection();
    if (selection.isEmpty()) {
      requeueMessage = "Filter by status FAILED or CANCELLED first.";
      return;
    }
    try {
      requeueCount = maintenance.countRequeueable(selection.get());
      confirmingRequeue = true;
    } catch (UnknownTaskTypeException e) {
      requeueMessage = "Unknown task type: " + type + ".";
    }
  }

  /** The admin changed their mind. */
  public void keepEnded() {
    confirmingRequeue = false;
  }

  /** Queues every task the filters select again, once confirmed; says how many. */
  public void requeueAll() {
    confirmingRequeue = false;
    if (!security.isCallerInRole(Roles.ADMIN)) {
      requeueMessage = "Only an admin may requeue tasks.";
      return;
    }
    Optional<EndedTasks> selection = requeueSelection();
    if (selection.isEmpty()) {
      requeueMessage = "Filter by status FAILED or CANCELLED first.";
      return;
    }
    try {
      TaskMaintenance.Bulk bulk =
          maintenance.requeueAll(
              selection.get(), security.getCallerPrincipal().getName() + " on the admin page");
      requeueMessage =
          (bulk.done() == 1 ? "1 task was" : bulk.done() + " tasks were")
              + " queued again."
              + (bulk.skipped() > 0
                  ? " " + bulk.skipped() + " could not be; the first: " + bulk.firstSkip()
                  : "")
              + (bulk.more() ? " More match: requeue again for the next ones." : "");
    } catch (UnknownTaskTypeException e) {
      requeueMessage = "Unknown task type: " + type + ".";
    }
  }

  public boolean isConfirmingRequeue() {
    return confirmingRequeue;
  }

  public long getRequeueCount() {
    return requeueCount;
  }

  public String getRequeueMessage() {
    return requeueMessage;
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
