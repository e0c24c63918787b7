package io.taskgate.store;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A {@link TaskStore} that wraps another and passes every read straight to it; subclasses decide
 * what happens to the writes ({@link GroupCommitTaskStore} batches them, {@link ListeningTaskStore}
 * reports them).
 */
public abstract class ForwardingTaskStore implements TaskStore {
  /** The wrapped store. */
  protected final TaskStore delegate;

  /** Wraps {@code delegate}. */
  protected ForwardingTaskStore(TaskStore delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /**
   * Straight to the wrapped store, in a transaction of its own: its key's row is locked while the
   * existing task is read, which a batch with other callers' writes would hold too long.
   */
  @Override
  public Optional<UUID> insertUnique(StoredTask task, UniqueClaim claim) {
    return delegate.insertUnique(task, claim);
  }

  @Override
  public Optional<StoredTask> find(UUID id) {
    return delegate.find(id);
  }

  @Override
  public void note(List<TaskNote> notes) {
    delegate.note(notes);
  }

  @Override
  public Optional<StoredTask> findLive(String type, String taskKey) {
    return delegate.findLive(type, taskKey);
  }

  @Override
  public List<StoredTask> findAll(Collection<UUID> ids) {
    return delegate.findAll(ids);
  }

  @Override
  public List<DueTask> findDue(Instant now, DueTask after, int max) {
    return delegate.findDue(now, after, max);
  }
}
