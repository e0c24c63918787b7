package io.taskgate.engine.throttle.family;

import io.taskgate.api.ThrottlerInUseException;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.ThrottlingManager;
import io.taskgate.api.WindowOptions;
import io.taskgate.core.throttle.ResourceTemplate;
import io.taskgate.store.ThrottlerChange;
import io.taskgate.store.ThrottlerRecord;
import io.taskgate.store.ThrottlerStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The {@link ThrottlingManager} applications inject: definitions stored through the {@link
 * ThrottlerStore} (each change audited), taking effect on this instance at once and on the others
 * within {@link JobThrottlers#DEFINITIONS_TTL}. Code calling it is audited as {@link #APPLICATION};
 * the REST API passes the user.
 */
@ApplicationScoped
public class DefaultThrottlingManager implements ThrottlingManager {
  private static final Logger LOG = Logger.getLogger(DefaultThrottlingManager.class.getName());

  /** Who the audit names for changes made by application code. */
  public static final String APPLICATION = "application";

  @Inject ThrottlerStore store;
  @Inject JobThrottlers throttlers;
  @Inject InstantSource clock;

  @Override
  public void addOrUpdateSemaphore(String id, int maxCount) {
    addOrUpdateSemaphore(id, maxCount, APPLICATION);
  }

  /** {@link #addOrUpdateSemaphore(String, int)}, audited as made by {@code by}. */
  public ThrottlerRecord addOrUpdateSemaphore(String id, int maxCount, String by) {
    if (maxCount < 1) {
      throw new IllegalArgumentException("maxCount must be at least 1, was " + maxCount);
    }
    return put(new ThrottlerRecord(ThrottlerKind.SEMAPHORE, id(id), maxCount, 0, 0, 0, 0, 0), by);
  }

  @Override
  public void addOrUpdateWindow(ThrottlerKind kind, String id, WindowOptions options) {
    addOrUpdateWindow(kind, id, options, APPLICATION);
  }

  /** {@link #addOrUpdateWindow(ThrottlerKind, String, WindowOptions)}, audited as {@code by}. */
  public ThrottlerRecord addOrUpdateWindow(
      ThrottlerKind kind, String id, WindowOptions options, String by) {
    Objects.requireNonNull(options, "options");
    switch (kind) {
      case FIXED_WINDOW -> {
        if (options.buckets() != 1) {
          throw new IllegalArgumentException(
              "a fixed window has 1 bucket, was " + options.buckets() + ": use a sliding window");
        }
        dynamicOnly(options);
      }
      case SLIDING_WINDOW -> dynamicOnly(options);
      case DYNAMIC_WINDOW -> {
        // capacity and rebalancing are its own
      }
      default ->
          throw new IllegalArgumentException(
              kind.label()
                  + " is not a window: use fixed-window, sliding-window or dynamic-window");
    }
    return put(
        new ThrottlerRecord(
            kind,
            id(id),
            options.limit(),
            options.interval().toMillis(),
            options.buckets(),
            options.capacity(),
            options.minLimit(),
            options.maxLimit()),
        by);
  }

  private static void dynamicOnly(WindowOptions options) {
    if (options.capacity() != 0 || options.isRebalanced()) {
      throw new IllegalArgumentException(
          "capacity, minLimit and maxLimit are for dynamic windows only");
    }
  }

  private ThrottlerRecord put(ThrottlerRecord record, String by) {
    Optional<ThrottlerRecord> before = store.put(record, by, clock.instant());
    throttlers.reload(clock.instant());
    if (before.isEmpty() || !before.get().equals(record)) {
      LOG.info(
          () ->
              "Taskgate: "
                  + record.kind().label()
                  + " '"
                  + record.id()
                  + "' "
                  + before
                      .map(b -> "changed by " + by + " from " + b.describe() + " to ")
                      .orElse("added by " + by + ": ")
                  + record.describe());
    }
    // a larger semaphore lets waiters in: wake as many as it has new permits
    if (record.kind() == ThrottlerKind.SEMAPHORE) {
      int more = record.limit() - before.map(ThrottlerRecord::limit).orElse(0);
      String resource = JobThrottlers.resource(record.kind(), record.id());
      throttlers.wake(resource, Math.max(0, more));
    }
    return record;
  }

  @Override
  public boolean remove(ThrottlerKind kind, String id) {
    return remove(kind, id, APPLICATION);
  }

  /** {@link #remove(ThrottlerKind, String)}, audited as made by {@code by}. */
  public boolean remove(ThrottlerKind kind, String id, String by) {
    if (kind == ThrottlerKind.MUTEX) {
      throw new IllegalArgumentException(
          "mutexes are not defined, so they cannot be removed: they exist while held");
    }
    String normalised = id(id);
    if (kind == ThrottlerKind.SEMAPHORE) {
      int holders = throttlers.state().owners(JobThrottlers.resource(kind, normalised));
      if (holders > 0) {
        throw new ThrottlerInUseException(kind, normalised, holders);
      }
    }
    boolean removed = store.remove(kind, normalised, by, clock.instant()).isPresent();
    throttlers.reload(clock.instant());
    if (removed) {
      LOG.info(() -> "Taskgate: " + kind.label() + " '" + normalised + "' removed by " + by);
    }
    return removed;
  }

  @Override
  public Optional<Integer> semaphore(String id) {
    return Optional.ofNullable(throttlers.semaphore(id(id)));
  }

  @Override
  public Optional<WindowOptions> window(ThrottlerKind kind, String id) {
    return Optional.ofNullable(throttlers.window(kind, id(id)));
  }

  /** The latest {@code max} changes of definitions, newest first. */
  public List<ThrottlerChange> changes(int max) {
    return store.changes(max);
  }

  /** The definition {@code record} holds, as the API's options. */
  static WindowOptions options(ThrottlerRecord record) {
    return new WindowOptions(
        record.limit(),
        Duration.ofMillis(record.intervalMillis()),
        record.buckets(),
        record.capacity(),
        record.minLimit(),
        record.maxLimit());
  }

  private static String id(String id) {
    if (id == null) {
      throw new IllegalArgumentException("id must be given");
    }
    return ResourceTemplate.normalise(id, id);
  }
}
