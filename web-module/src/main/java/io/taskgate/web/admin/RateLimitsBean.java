package io.taskgate.web.admin;

import io.taskgate.api.UnknownTaskTypeException;
import io.taskgate.engine.admin.ThrottleViews;
import io.taskgate.engine.admin.dto.Pacing;
import io.taskgate.engine.admin.dto.RateLimitPage;
import io.taskgate.engine.admin.dto.RateLimitQuery;
import io.taskgate.engine.admin.dto.RateLimitSort;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.io.Serializable;
import java.util.Optional;

/**
 * The rate-limits page: the (task type, key) rows, searchable by key, filtered by type and to
 * throttled keys, sorted by key, parked count or next slot, a page at a time; and for a selected
 * key its pacing timeline. Everything comes from query parameters, so a view can be bookmarked.
 */
@Named("rateLimits")
@ViewScoped
public class RateLimitsBean implements Serializable {
  private static final long serialVersionUID = 1L;
  static final int PAGE_SIZE = 20;

  @Inject ThrottleViews views;
  @Inject io.taskgate.engine.admin.TaskAdmin tasks;
  @Inject jakarta.security.enterprise.SecurityContext security;

  private String search;
  private String type;
  private boolean throttledOnly;
  private String sort;
  private boolean desc;
  private int page;
  private String selectedType;
  private String selectedKey;
  private String window;
  private Timeline.Window shownWindow;
  private boolean confirmingCancel;
  private String cancelMessage;

  private transient RateLimitPage found;
  private transient Pacing pacing;
  private transient Timeline timeline;
  private transient String problem;

  /** Reads the rows and the selected key's pacing; called before every render. */
  public void load() {
    problem = null;
    found = null;
    pacing = null;
    timeline = null;
    RateLimitSort order = RateLimitSort.parse(sort).orElse(RateLimitSort.KEY);
    try {
      found =
          views.rateLimits(
              new RateLimitQuery(
                  text(type),
                  text(search),
                  throttledOnly,
                  order,
                  sort == null ? order.descendingByDefault() : desc,
                  Math.max(0, Math.min(page, RateLimitQuery.MAX_DEPTH / PAGE_SIZE - 1)),
                  PAGE_SIZE));
    } catch (UnknownTaskTypeException e) {
      problem = "Unknown task type: " + type;
    }
    if (selectedType != null && selectedKey != null) {
      try {
        pacing = views.pacing(selectedType, selectedKey).orElse(null);
      } catch (UnknownTaskTypeException e) {
        pacing = null;
      }
      if (pacing != null) {
        // the window asked for; else the one that fitted the parked tasks when the page was
        // opened, kept across live refreshes so that the scale does not change under the reader
        Timeline.Window chosen = Timeline.Window.parse(window).orElse(shownWindow);
        timeline = chosen == null ? Timeline.of(pacing) : Timeline.of(pacing, chosen);
        shownWindow = timeline.window();
      }
    }
  }

  private static Optional<String> text(String value) {
    return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
  }

  /** The query string of this view with another sort: the same column again reverses it. */
  public String sortLink(String column) {
    RateLimitSort current = RateLimitSort.parse(sort).orElse(RateLimitSort.KEY);
    RateLimitSort wanted = RateLimitSort.parse(column).orElse(RateLimitSort.KEY);
    boolean descending =
        wanted == current
            ? !(sort == null ? current.descendingByDefault() : desc)
            : wanted.descendingByDefault();
    return "sort=" + wanted.parameter() + "&desc=" + descending + filters();
  }

  /** The arrow after a column's header: the current order, or nothing. */
  public String sortMark(String column) {
    RateLimitSort current = RateLimitSort.parse(sort).orElse(RateLimitSort.KEY);
    if (RateLimitSort.parse(column).orElse(null) != current) {
      return "";
    }
    return (sort == null ? current.descendingByDefault() : desc) ? " ▼" : " ▲";
  }

  /** The query string of this view on another page. */
  public String pageLink(int to) {
    return "page=" + to + sortParams() + filters();
  }

  /** The query string of this view with {@code taskType} and {@code key} selected. */
  public String selectLink(String taskType, String key) {
    return "page="
        + page
        + sortParams()
        + filters()
        + "&selType="
        + Display.encode(taskType)
        + "&selKey="
        + Display.encode(key);
  }

  /** Asks the admin to confirm cancelling the selected key's parked tasks. */
  public void askCancelParked() {
    confirmingCancel = true;
    cancelMessage = null;
  }

  /** The admin changed their mind. */
  public void keepParked() {
    confirmingCancel = false;
  }

  /** Cancels the tasks parked on the selected key, once confirmed; says how many. */
  public void cancelParked() {
    confirmingCancel = false;
    if (!security.isCallerInRole(io.taskgate.web.security.Roles.ADMIN)) {
      cancelMessage = "Only an admin may cancel tasks.";
      return;
    }
    if (selectedType == null || selectedKey == null) {
      cancelMessage = "Choose a key first.";
      return;
    }
    try {
      int cancelled =
          tasks.cancelParked(
              selectedType,
              selectedKey,
              security.getCallerPrincipal().getName() + " on the admin page");
      cancelMessage =
          cancelled == 1
              ? "1 parked task of key " + selectedKey + " was cancelled."
              : cancelled + " parked tasks of key " + selectedKey + " were cancelled.";
    } catch (UnknownTaskTypeException e) {
      cancelMessage = "Unknown task type: " + selectedType + ".";
    }
  }

  public boolean isConfirmingCancel() {
    return confirmingCancel;
  }

  public String getCancelMessage() {
    return cancelMessage;
  }

  /** The query string of this view with the selected key's timeline over {@code window}. */
  public String windowLink(String window) {
    return selectLink(selectedType, selectedKey) + "&win=" + Display.encode(window);
  }

  /** The timeline's windows, shortest first. */
  public Timeline.Window[] getWindows() {
    return Timeline.Window.values();
  }

  private String sortParams() {
    return sort == null ? "" : "&sort=" + Display.encode(sort) + "&desc=" + desc;
  }

  private String filters() {
    return (search == null || search.isEmpty() ? "" : "&q=" + Display.encode(search))
        + (type == null || type.isEmpty() ? "" : "&type=" + Display.encode(type))
        + (throttledOnly ? "&throttled=true" : "");
  }

  /** Whether {@code taskType} and {@code key} are the selected row. */
  public boolean selected(String taskType, String key) {
    return pacing != null && pacing.taskType().equals(taskType) && pacing.key().equals(key);
  }

  /** The last page's number (from 0). */
  public long getLastPage() {
    return found == null || found.total() == 0 ? 0 : (found.total() - 1) / PAGE_SIZE;
  }

  public RateLimitPage getFound() {
    return found;
  }

  public Pacing getPacing() {
    return pacing;
  }

  public Timeline getTimeline() {
    return timeline;
  }

  public String getProblem() {
    return problem;
  }

  public String getSearch() {
    return search;
  }

  public void setSearch(String search) {
    this.search = search;
  }

  public String getType() {
    return type;
  }

  public void setType(String type) {
    this.type = type;
  }

  public boolean isThrottledOnly() {
    return throttledOnly;
  }

  public void setThrottledOnly(boolean throttledOnly) {
    this.throttledOnly = throttledOnly;
  }

  public String getSort() {
    return sort;
  }

  public void setSort(String sort) {
    this.sort = sort;
  }

  public boolean isDesc() {
    return desc;
  }

  public void setDesc(boolean desc) {
    this.desc = desc;
  }

  public int getPage() {
    return page;
  }

  public void setPage(int page) {
    this.page = page;
  }

  public String getWindow() {
    return window;
  }

  public void setWindow(String window) {
    this.window = window;
  }

  public String getSelectedType() {
    return selectedType;
  }

  public void setSelectedType(String selectedType) {
    this.selectedType = selectedType;
  }

  public String getSelectedKey() {
    return selectedKey;
  }

  public void setSelectedKey(String selectedKey) {
    this.selectedKey = selectedKey;
  }
}
