package io.taskgate.web.admin;

import io.taskgate.api.LimiterStats;
import io.taskgate.core.limit.Limit;
import io.taskgate.engine.admin.LimiterAdmin;
import io.taskgate.web.security.Roles;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.security.enterprise.SecurityContext;
import java.io.Serializable;
import java.util.Optional;

/**
 * The Throttlers page's form that changes a limiter's limit at run time, or gives it its declared
 * limit back: what {@code PUT} and {@code DELETE /api/limiters/{name}} do, with the same checks and
 * the same audit.
 */
@Named("limiterForm")
@ViewScoped
public class LimiterFormBean implements Serializable {
  private static final long serialVersionUID = 1L;

  @Inject LimiterAdmin admin;
  @Inject SecurityContext security;
  @Inject Display fmt;

  private String name;
  private final LimitForm limit = new LimitForm();

  /** Changes the chosen limiter's limit; says what it is now, or which field is wrong. */
  public void save() {
    Optional<LimiterStats> limiter = chosen();
    if (limiter.isEmpty()) {
      return;
    }
    try {
      Limit wanted = limit.limit(limiter.get().algorithm()::defaultBurst);
      LimiterStats now =
          admin.set(
              name,
              wanted.permits(),
              wanted.period(),
              wanted.burst(),
              security.getCallerPrincipal().getName());
      say(
          FacesMessage.SEVERITY_INFO,
          "Limiter '" + name + "' now allows " + fmt.limiter(now) + ".");
    } catch (IllegalArgumentException e) {
      say(FacesMessage.SEVERITY_WARN, "Not changed: " + e.getMessage() + ".");
    }
  }

  /** Gives the chosen limiter its declared limit back. */
  public void reset() {
    if (chosen().isEmpty()) {
      return;
    }
    boolean reset = admin.reset(name, security.getCallerPrincipal().getName());
    say(
        FacesMessage.SEVERITY_INFO,
        reset
            ? "Limiter '" + name + "' has its declared limit again."
            : "Limiter '" + name + "' had its declared limit already.");
  }

  /** The chosen limiter, if the caller is an admin and it exists; says why not otherwise. */
  private Optional<LimiterStats> chosen() {
    if (!security.isCallerInRole(Roles.ADMIN)) {
      say(FacesMessage.SEVERITY_WARN, "Only an admin may change limiters.");
      return Optional.empty();
    }
    Optional<LimiterStats> found = name == null ? Optional.empty() : admin.find(name.strip());
    if (found.isEmpty()) {
      say(FacesMessage.SEVERITY_WARN, "No limiter is named '" + name + "'.");
    }
    return found;
  }

  private static void say(FacesMessage.Severity severity, String text) {
    FacesContext.getCurrentInstance().addMessage(null, new FacesMessage(severity, text, null));
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public LimitForm getLimit() {
    return limit;
  }
}
