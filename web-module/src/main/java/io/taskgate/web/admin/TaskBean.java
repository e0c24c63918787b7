package io.taskgate.web.admin;

import io.taskgate.api.TaskNotFoundException;
import io.taskgate.api.TaskNotRequeueableException;
import io.taskgate.engine.admin.TaskAdmin;
import io.taskgate.engine.admin.TaskMaintenance;
import io.taskgate.engine.admin.dto.TaskView;
import io.taskgate.web.security.Roles;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.security.enterprise.SecurityContext;
import java.io.Serializable;
import java.util.UUID;

/**
 * One task's page: its fields, whether and until when it is throttled, its history; cancel, and
 * requeue an ended one.
 */
@Named("task")
@ViewScoped
public class TaskBean implements Serializable {
  private static final long serialVersionUID = 1L;

  @Inject TaskAdmin admin;
  @Inject TaskMaintenance maintenance;
  @Inject SecurityContext security;

  private String id;
  private transient TaskView task;

  /** Reads the task; called before every render (page load, live refresh, after cancel). */
  public void load() {
    task = taskId() == null ? null : admin.find(taskId()).orElse(null);
  }

  /** Cancels the task if it has not started; says what happened. */
  public void cancel() {
    FacesContext faces = FacesContext.getCurrentInstance();
    UUID taskId = taskId();
    if (!security.isCallerInRole(Roles.ADMIN)) {
      // the page's URL constraint already requires the role; the action checks it too
      faces.addMessage(
          null, new FacesMessage(FacesMessage.SEVERITY_WARN, "Only an admin may cancel.", null));
      return;
    }
    if (taskId == null) {
      faces.addMessage(null, new FacesMessage(FacesMessage.SEVERITY_WARN, "No such task.", null));
      return;
    }
    boolean cancelled;
    try {
      cancelled =
          admin.cancel(taskId, security.getCallerPrincipal().getName() + " on the admin page");
    } catch (TaskNotFoundException e) {
      cancelled = false;
    }
    String message =
        cancelled
            ? "Task cancelled."
            : "Not cancelled: only a queued task can be cancelled, this one is "
                + admin.find(taskId).map(t -> t.status().name()).orElse("unknown")
                + ".";
    faces.addMessage(
        null,
        new FacesMessage(
            cancelled ? FacesMessage.SEVERITY_INFO : FacesMessage.SEVERITY_WARN, message, null));
  }

  /** Queues the task again if it FAILED or was CANCELLED; says what happened. */
  public void requeue() {
    FacesContext faces = FacesContext.getCurrentInstance();
    UUID taskId = taskId();
    if (!security.isCallerInRole(Roles.ADMIN)) {
      faces.addMessage(
          null, new FacesMessage(FacesMessage.SEVERITY_WARN, "Only an admin may requeue.", null));
      return;
    }
    if (taskId == null) {
      faces.addMessage(null, new FacesMessage(FacesMessage.SEVERITY_WARN, "No such task.", null));
      return;
    }
    try {
      maintenance.requeue(taskId, security.getCallerPrincipal().getName() + " on the admin page");
      faces.addMessage(
          null,
          new FacesMessage(
              FacesMessage.SEVERITY_INFO,
              "Task queued again: it runs from its first attempt.",
              null));
    } catch (TaskNotFoundException e) {
      faces.addMessage(null, new FacesMessage(FacesMessage.SEVERITY_WARN, "No such task.", null));
    } catch (TaskNotRequeueableException e) {
      faces.addMessage(
          null,
          new FacesMessage(FacesMessage.SEVERITY_WARN, "Not requeued: " + e.getMessage(), null));
    }
  }

  private UUID taskId() {
    try {
      return id == null ? null : UUID.fromString(id.strip());
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  public TaskView getTask() {
    return task;
  }

  public String getId() {
    return id;
  }

  public void setId(String id) {
    this.id = id;
  }
}
