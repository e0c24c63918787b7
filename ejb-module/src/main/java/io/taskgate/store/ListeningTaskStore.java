package io.taskgate.store;

import io.taskgate.core.task.TaskStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A {@link TaskStore} that tells a {@link TaskWriteListener} about each write it applied, once the
 * write returned (committed, or joined to the caller's own transaction). Reads pass through.
 */
public final class ListeningTaskStore implements TaskStore, AutoCloseable {
  private final TaskStore delegate;
  private final TaskWriteListener listener;

  /**
   * @param delegate the store that writes
   * @param listener who is told
   */
  public ListeningTaskStore(TaskStore delegate, TaskWriteListener listener) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /** The store this one wraps. */
  public TaskStore delegate() {
    return delegate;
  }

  @Override
  public void insert(StoredTask task) {
    delegate.insert(task);
    if (listener.listening()) {
      listener.written(null, task, task.createdAt());
    }
  }

  @Override
  public Optional<StoredTask> update(StoredTask expected, StoredTask changed, Instant now) {
    Optional<StoredTask> stored = delegate.update(expected, changed, now);
    if (stored.isPresent() && listener.listening()) {
      listener.written(expected, stored.get(), now);
    }
    return stored;
  }

  @Override
  public List<Optional<StoredTask>> writeAll(List<TaskWrite> writes) {
    List<Optional<StoredTask>> results = delegate.writeAll(writes);
    if (listener.listening()) {
      for (int i = 0; i < results.size(); i++) {
        StoredTask stored = results.get(i).orElse(null);
        if (stored == null) {
          continue;
        }
        TaskWrite write = writes.get(i);
        if (write instanceof TaskWrite.Update update) {
          listener.written(update.expected(), stored, update.now());
        } else {
          listener.written(null, stored, stored.createdAt());
        }
      }
    }
    return results;
  }

  @Override
  public Optional<StoredTask> find(UUID id) {
    return delegate.find(id);
  }

  @Override
  public Optional<StoredTask> findLive(String type, String taskKey) {
    return delegate.findLive(type, taskKey);
  }

  @Override
  public List<StoredTask> findByStatus(Set<TaskStatus> statuses, int max) {
    return delegate.findByStatus(statuses, max);
  }

  @Override
  public List<DueTask> findDue(java.time.Instant now, DueTask after, int max) {
    return delegate.findDue(now, after, max);
  }

  @Override
  public TaskPage query(TaskQuery query) {
    return delegate.query(query);
  }

  @Override
  public List<TaskAudit> history(UUID id) {
    return delegate.history(id);
  }

  @Override
  public Map<String, Map<TaskStatus, Long>> countByQueueAndStatus() {
    return delegate.countByQueueAndStatus();
  }

  /** Closes the wrapped store if it can be closed. */
  @Override
  public void close() throws Exception {
    if (delegate instanceof AutoCloseable closeable) {
      closeable.close();
    }
  }
}
