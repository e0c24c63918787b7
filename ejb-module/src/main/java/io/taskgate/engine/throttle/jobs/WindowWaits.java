package io.taskgate.engine.throttle.jobs;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tasks waiting for a window to open, by window: they retry at its opening rather than waiting
 * for a release, so the views learn of them here. Thread-safe.
 */
final class WindowWaits {
  private final ConcurrentHashMap<String, Set<String>> byWindow = new ConcurrentHashMap<>();

  /** Task {@code taskId} waits for window {@code resource} to open (or no longer does). */
  void waits(String resource, String taskId, boolean waits) {
    if (waits) {
      byWindow.computeIfAbsent(resource, r -> ConcurrentHashMap.newKeySet()).add(taskId);
    } else {
      byWindow.computeIfPresent(
          resource,
          (r, tasks) -> {
            tasks.remove(taskId);
            return tasks.isEmpty() ? null : tasks;
          });
    }
  }

  /** The tasks waiting for window {@code resource} to open. */
  Set<String> of(String resource) {
    Set<String> tasks = byWindow.get(resource);
    return tasks == null ? Set.of() : Set.copyOf(tasks);
  }

  /** Adds the ids of every waiting task to {@code ids}. */
  void addIds(Set<UUID> ids) {
    byWindow.values().forEach(tasks -> tasks.forEach(id -> ids.add(UUID.fromString(id))));
  }

  /** The window task {@code taskId} waits for, if any. */
  Optional<String> windowOf(UUID taskId) {
    if (byWindow.isEmpty()) {
      return Optional.empty();
    }
    String id = taskId.toString();
    return byWindow.entrySet().stream()
        .filter(e -> e.getValue().contains(id))
        .map(Map.Entry::getKey)
        .findFirst();
  }

  /** Task {@code taskId} waits for no window any more. */
  void forget(UUID taskId) {
    for (String resource : byWindow.keySet()) {
      waits(resource, taskId.toString(), false);
    }
  }
}
