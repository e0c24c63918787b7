package io.taskgate.web.admin;

import io.taskgate.api.ThrottlerInUseException;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.WindowOptions;
import io.taskgate.core.throttle.JobKind;
import io.taskgate.engine.admin.LimiterAdmin;
import io.taskgate.engine.admin.StatsViews;
import io.taskgate.engine.admin.ThrottlerAdmin;
import io.taskgate.engine.admin.dto.LimiterView;
import io.taskgate.engine.admin.dto.ThrottlersView;
import io.taskgate.web.security.Roles;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.security.enterprise.SecurityContext;
import java.io.Serializable;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/**
 * The Throttlers page: every mutex, semaphore and window with what it holds, counts and keeps
 * waiting, how each task type uses them, the change log; admins define, change and remove
 * semaphores and windows.
 */
@Named("throttlers")
@ViewScoped
public class ThrottlersBean implements Serializable {
  private static final long serialVersionUID = 1L;

  @Inject ThrottlerAdmin admin;
  @Inject LimiterAdmin limiterAdmin;
  @Inject SecurityContext security;
  @Inject StatsViews statsViews;

  private transient ThrottlersView found;
  private transient List<LimiterView> limiters;
  private transient LastHour lastHour;

  private String kind = "semaphore";
  private String id;
  private Integer limit;
  private String interval;
  private Integer buckets = 1;
  private Integer capacity = 0;
  private Integer minLimit = 0;
  private Integer maxLimit = 0;

  /** Reads the throttlers; before every render. */
  public void load() {
    found = admin.list();
    limiters = limiterAdmin.views();
    lastHour =
        new LastHour(
            statsViews.stats(StatsViews.DEFAULT_MINUTES, Optional.empty(), Optional.empty()),
            LastHour.THROTTLERS);
  }

  /** The tasks the job throttlers made wait or dropped in the last hour, minute by minute. */
  public LastHour getLastHour() {
    return lastHour;
  }

  /** The limiters of {@code @RateLimited} methods, as of the last load. */
  public List<LimiterView> getLimiters() {
    return limiters;
  }

  /** Defines or changes the semaphore or window described by the form. */
  public void save() {
    if (!admin()) {
      return;
    }
    String by = security.getCallerPrincipal().getName();
    try {
      ThrottlerKind k = ThrottlerKind.parse(kind);
      if (!JobKind.of(k).windowed()) {
        admin.putSemaphore(text(id), required("max count", limit), by);
      } else {
        admin.putWindow(
            k,
            text(id),
            new WindowOptions(
                limit == null ? 0 : limit,
                duration(interval),
                buckets == null ? 1 : buckets,
                capacity == null ? 0 : capacity,
                minLimit == null ? 0 : minLimit,
                maxLimit == null ? 0 : maxLimit),
            by);
      }
      say(FacesMessage.SEVERITY_INFO, k.label() + " '" + text(id) + "' saved.");
    } catch (IllegalArgumentException e) {
      say(FacesMessage.SEVERITY_WARN, "Not saved: " + e.getMessage() + ".");
    }
  }

  /** Removes a semaphore or window. */
  public void remove(String kind, String id) {
    if (!admin()) {
      return;
    }
    try {
      boolean removed =
          admin.remove(ThrottlerKind.parse(kind), id, security.getCallerPrincipal().getName());
      say(
          FacesMessage.SEVERITY_INFO,
          removed ? kind + " '" + id + "' removed." : kind + " '" + id + "' was not defined.");
    } catch (ThrottlerInUseException | IllegalArgumentException e) {
      say(FacesMessage.SEVERITY_WARN, "Not removed: " + e.getMessage() + ".");
    }
  }

  private boolean admin() {
    if (security.isCallerInRole(Roles.ADMIN)) {
      return true;
    }
    say(FacesMessage.SEVERITY_WARN, "Only an admin may change throttlers.");
    return false;
  }

  private static String text(String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("id must be given");
    }
    return value.strip();
  }

  private static int required(String name, Integer value) {
    if (value == null) {
      throw new IllegalArgumentException(name + " must be given");
    }
    return value;
  }

  private static Duration duration(String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("interval must be given, such as PT1M");
    }
    try {
      return Duration.parse(value.strip());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "interval '" + value + "' is not an ISO-8601 duration such as PT1M", e);
    }
  }

  private static void say(FacesMessage.Severity severity, String text) {
    FacesContext.getCurrentInstance().addMessage(null, new FacesMessage(severity, text, null));
  }

  public ThrottlersView getFound() {
    return found;
  }

  public String getKind() {
    return kind;
  }

  public void setKind(String kind) {
    this.kind = kind;
  }

  public String getId() {
    return id;
  }

  public void setId(String id) {
    this.id = id;
  }

  public Integer getLimit() {
    return limit;
  }

  public void setLimit(Integer limit) {
    this.limit = limit;
  }

  public String getInterval() {
    return interval;
  }

  public void setInterval(String interval) {
    this.interval = interval;
  }

  public Integer getBuckets() {
    return buckets;
  }

  public void setBuckets(Integer buckets) {
    this.buckets = buckets;
  }

  public Integer getCapacity() {
    return capacity;
  }

  public void setCapacity(Integer capacity) {
    this.capacity = capacity;
  }

  public Integer getMinLimit() {
    return minLimit;
  }

  public void setMinLimit(Integer minLimit) {
    this.minLimit = minLimit;
  }

  public Integer getMaxLimit() {
    return maxLimit;
  }

  public void setMaxLimit(Integer maxLimit) {
    this.maxLimit = maxLimit;
  }
}
