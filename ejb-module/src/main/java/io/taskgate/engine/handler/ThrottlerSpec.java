package io.taskgate.engine.handler;

import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.ThrottlerMode;
import io.taskgate.core.throttle.JobKind;
import io.taskgate.core.throttle.ResourceTemplate;
import java.util.Objects;

/**
 * One job throttler a task type names ({@code @Mutex}, {@code @Semaphore}, {@code @FixedWindow},
 * {@code @SlidingWindow}, {@code @DynamicWindow}), read and checked when the application deploys.
 *
 * @param kind which throttler
 * @param resource its id, a template for a mutex, fixed for the others
 * @param owner a mutex's owner template; null: the task itself
 * @param window a dynamic window's sub-window template; null for the others
 * @param mode whether it is acquired or only released
 */
public record ThrottlerSpec(
    ThrottlerKind kind,
    ResourceTemplate resource,
    ResourceTemplate owner,
    ResourceTemplate window,
    ThrottlerMode mode) {

  /** Checks what must be present. */
  public ThrottlerSpec {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(mode, "mode");
    if (JobKind.of(kind).subWindows() != (window != null)) {
      throw new IllegalArgumentException(
          "a dynamic window, and only it, has a sub-window template");
    }
  }

  /** Its name among the throttles of the task type: {@code mutex:order-{orderId}}. */
  public String name() {
    return kind.label()
        + ":"
        + resource.text()
        + (window == null ? "" : "/" + window.text())
        + (owner == null ? "" : "@" + owner.text());
  }

  /** Whether it is held while tasks run (a mutex or semaphore), not spent by time (a window). */
  public boolean holds() {
    return JobKind.of(kind).holds();
  }
}
