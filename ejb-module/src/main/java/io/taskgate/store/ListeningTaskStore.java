package io.taskgate.store;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link TaskStore} that tells a {@link TaskWriteListener} about each write it applied, once the
 * write returned (committed, or joined to the caller's own transaction). Reads pass through.
 */
public final class ListeningTaskStore extends ForwardingTaskStore implements AutoCloseable {
  private final TaskWriteListener listener;

  /**
   * @param delegate the store that writes
   * @param listener who is told
   */
  public ListeningTaskStore(TaskStore delegate, TaskWriteListener listener) {
    super(delegate);
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
  public Optional<java.util.UUID> insertUnique(StoredTask task, UniqueClaim claim) {
    Optional<java.util.UUID> existing = delegate.insertUnique(task, claim);
    if (existing.isEmpty() && listener.listening()) {
      listener.written(null, task, task.createdAt());
    }
    return existing;
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
    return told(writes, delegate.writeAll(writes));
  }

  @Override
  public List<Optional<StoredTask>> writeAll(List<TaskWrite> writes, CommitWait wait) {
    return told(writes, delegate.writeAll(writes, wait));
  }

  /** Tells the listener what {@code writes} stored, on the caller's thread; returns the results. */
  private List<Optional<StoredTask>> told(
      List<TaskWrite> writes, List<Optional<StoredTask>> results) {
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

  /** Closes the wrapped store if it can be closed. */
  @Override
  public void close() throws Exception {
    if (delegate instanceof AutoCloseable closeable) {
      closeable.close();
    }
  }
}
