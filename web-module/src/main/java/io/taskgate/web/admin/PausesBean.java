package io.taskgate.web.admin;

import io.taskgate.api.PauseScope;
import io.taskgate.api.UnknownTaskTypeException;
import io.taskgate.engine.admin.TaskAdmin;
import io.taskgate.engine.admin.TaskMaintenance;
import io.taskgate.engine.admin.dto.PauseView;
import io.taskgate.web.security.Roles;
import jakarta.enterprise.context.RequestScoped;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.security.enterprise.SecurityContext;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The pauses on the overview page: the queues, task types and rate-limit keys paused, each with the
 * tasks it holds; an admin pauses one (with a reason) or resumes it, as {@code /api/pauses} does,
 * logged with the user's name. The other pages ask it what is paused, to mark it.
 */
@Named("pausing")
@RequestScoped
public class PausesBean {
  @Inject TaskMaintenance maintenance;
  @Inject TaskAdmin tasks;
  @Inject SecurityContext security;

  private List<PauseView> pauses;
  private String scope = "queue";
  private String name;
  private String reason;

  /** The pauses in force, read once per request. */
  public List<PauseView> getPauses() {
    if (pauses == null) {
      pauses = maintenance.pauses();
    }
    return pauses;
  }

  /** The names paused in {@code scope} ({@code queue}, {@code type}, {@code key}). */
  public Set<String> paused(String scope) {
    PauseScope s = PauseScope.parse(scope);
    return getPauses().stream()
        .filter(p -> p.scope() == s)
        .map(PauseView::name)
        .collect(Collectors.toSet());
  }

  /** The task types, for the form's suggestions. */
  public List<String> getTaskTypes() {
    return tasks.taskTypes();
  }

  /** Pauses what the form names. */
  public void pause() {
    if (!admin()) {
      return;
    }
    try {
      PauseView pause =
          maintenance.pause(
              PauseScope.parse(scope), name, security.getCallerPrincipal().getName(), reason);
      pauses = null;
      say(
          FacesMessage.SEVERITY_INFO,
          "Paused "
              + pause.describe()
              + ": its queued tasks wait until it is resumed ("
              + pause.queued()
              + " now).");
      name = null;
      reason = null;
    } catch (UnknownTaskTypeException | IllegalArgumentException e) {
      say(FacesMessage.SEVERITY_WARN, "Not paused: " + e.getMessage() + ".");
    }
  }

  /** Resumes the pause of {@code name} in {@code scope}. */
  public void resume(String scope, String name) {
    if (!admin()) {
      return;
    }
    try {
      PauseScope s = PauseScope.parse(scope);
      boolean resumed =
          maintenance.resume(s, name, security.getCallerPrincipal().getName()).isPresent();
      pauses = null;
      say(
          FacesMessage.SEVERITY_INFO,
          resumed
              ? "Resumed " + s.label() + " " + name + ": its tasks start again."
              : s.label() + " " + name + " was not paused.");
    } catch (UnknownTaskTypeException | IllegalArgumentException e) {
      say(FacesMessage.SEVERITY_WARN, "Not resumed: " + e.getMessage() + ".");
    }
  }

  private boolean admin() {
    if (security.isCallerInRole(Roles.ADMIN)) {
      return true;
    }
    say(FacesMessage.SEVERITY_WARN, "Only an admin may pause or resume.");
    return false;
  }

  private static void say(FacesMessage.Severity severity, String text) {
    FacesContext.getCurrentInstance().addMessage(null, new FacesMessage(severity, text, null));
  }

  public String getScope() {
    return scope;
  }

  public void setScope(String scope) {
    this.scope = scope;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getReason() {
    return reason;
  }

  public void setReason(String reason) {
    this.reason = reason;
  }
}
