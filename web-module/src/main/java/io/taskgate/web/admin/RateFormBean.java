package io.taskgate.web.admin;

import io.taskgate.api.UnknownTaskTypeException;
import io.taskgate.core.limit.Limit;
import io.taskgate.engine.admin.ThrottlerAdmin;
import io.taskgate.engine.admin.dto.PolicyView;
import io.taskgate.web.security.Roles;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.security.enterprise.SecurityContext;
import java.io.Serializable;
import java.util.List;

/**
 * The Rate Limits page's form that changes the rate of a task type with {@code @RateLimit}, for one
 * key or the whole type, or drops such a change: what {@code PUT} and {@code DELETE
 * /api/throttlers/rate-limit/{type}} do, with the same checks and the same audit. A key must be
 * named unless "the whole type" is chosen, so that an empty key never changes every tenant.
 */
@Named("rateForm")
@ViewScoped
public class RateFormBean implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The scope value for one key. */
  static final String KEY = "key";

  /** The scope value for the whole task type. */
  static final String TYPE = "type";

  @Inject ThrottlerAdmin admin;
  @Inject SecurityContext security;
  @Inject Display fmt;

  private String type;
  private String scope = KEY;
  private String key;
  private final LimitForm limit = new LimitForm();

  /** The task types with {@code @RateLimit}, for the form's choice. */
  public List<String> getTypes() {
    return admin.rateLimitedTypes();
  }

  /** Changes the rate; says what the type's (or key's) tasks now get, or which field is wrong. */
  public void save() {
    if (!isAdmin()) {
      return;
    }
    try {
      String chosenKey = chosenKey();
      Limit rate = limit.taskRate();
      PolicyView now =
          admin.setRateLimit(
              type,
              chosenKey,
              rate.permits(),
              rate.period(),
              rate.burst(),
              security.getCallerPrincipal().getName());
      say(FacesMessage.SEVERITY_INFO, whose(chosenKey) + " now get " + fmt.policy(now) + ".");
    } catch (UnknownTaskTypeException e) {
      say(FacesMessage.SEVERITY_WARN, "Not changed: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      say(FacesMessage.SEVERITY_WARN, "Not changed: " + e.getMessage() + ".");
    }
  }

  /** Drops the run-time rate of the type (or key): its tasks get the annotation's again. */
  public void reset() {
    if (!isAdmin()) {
      return;
    }
    try {
      String chosenKey = chosenKey();
      boolean reset =
          admin.resetRateLimit(type, chosenKey, security.getCallerPrincipal().getName());
      say(
          FacesMessage.SEVERITY_INFO,
          reset
              ? whose(chosenKey) + " get the declared rate again."
              : whose(chosenKey) + " had no run-time rate.");
    } catch (UnknownTaskTypeException e) {
      say(FacesMessage.SEVERITY_WARN, "Not reset: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      say(FacesMessage.SEVERITY_WARN, "Not reset: " + e.getMessage() + ".");
    }
  }

  /** The key the form names; null for the whole type. */
  private String chosenKey() {
    if (type == null || type.isBlank()) {
      throw new IllegalArgumentException("type must be chosen");
    }
    if (TYPE.equals(scope)) {
      return null;
    }
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException(
          "key is required: name the key whose rate to change, or choose the whole task type");
    }
    if (key.chars().anyMatch(c -> c == 0)) {
      throw new IllegalArgumentException("key must not hold a NUL character");
    }
    return key;
  }

  private String whose(String chosenKey) {
    String simple = fmt.simpleType(type);
    return chosenKey == null ? "Tasks of " + simple : simple + " tasks of key " + chosenKey;
  }

  private boolean isAdmin() {
    if (security.isCallerInRole(Roles.ADMIN)) {
      return true;
    }
    say(FacesMessage.SEVERITY_WARN, "Only an admin may change rates.");
    return false;
  }

  private static void say(FacesMessage.Severity severity, String text) {
    FacesContext.getCurrentInstance().addMessage(null, new FacesMessage(severity, text, null));
  }

  public String getType() {
    return type;
  }

  public void setType(String type) {
    this.type = type;
  }

  public String getScope() {
    return scope;
  }

  public void setScope(String scope) {
    this.scope = scope;
  }

  public String getKey() {
    return key;
  }

  public void setKey(String key) {
    this.key = key;
  }

  public LimitForm getLimit() {
    return limit;
  }
}
