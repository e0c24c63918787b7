package io.taskgate.engine.throttle;

import io.taskgate.store.StoredTask;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The tasks waiting for a throttle's resource to be released ({@link
 * ThrottleDecision.WaitForRelease}), first come first served per resource. A release wakes the
 * first waiter of each resource it freed; a task waits for one resource at a time. Thread-safe.
 *
 * <p>A release can come between a throttle's answer and the task's registration as a waiter; so
 * that it is not missed, the caller reads {@link #releases} before it asks the throttles and hands
 * that reading to {@link #waitFor}, which refuses (the caller tries again at once) when any release
 * came in between.
 */
public final class ResourceWaiters {
  /**
   * A waiting task, the queue it goes back to when woken, and the task as it was read (nothing is
   * written while it waits, so a woken task need not be read again), or null.
   */
  public record Waiter(UUID taskId, String queue, StoredTask task) {
    /** A waiter without its stored copy. */
    public Waiter(UUID taskId, String queue) {
      this(taskId, queue, null);
    }
  }

  private final Map<String, Deque<Waiter>> byResource = new HashMap<>();
  private final Map<UUID, String> waitingFor = new HashMap<>();
  private volatile long releases; // written under this lock, read without it

  /** How many releases have been reported so far ({@link #released}). */
  public long releases() {
    return releases;
  }

  /**
   * {@code taskId} waits for {@code resource} (a task waiting already for it keeps its place; one
   * waiting for another resource moves to the end of this one's line), unless a release was
   * reported since {@code releasesSeen} ({@link #releases}, read before the throttles were asked):
   * then it does not wait, and false says to try again now.
   */
  public synchronized boolean waitFor(
      String resource, UUID taskId, String queue, long releasesSeen) {
    return waitFor(resource, new Waiter(taskId, queue), releasesSeen);
  }

  /** {@link #waitFor(String, UUID, String, long)} for {@code waiter}, with its stored copy. */
  public synchronized boolean waitFor(String resource, Waiter waiter, long releasesSeen) {
    UUID taskId = waiter.taskId();
    if (releases != releasesSeen) {
      return false;
    }
    if (resource.equals(waitingFor.get(taskId))) {
      return true;
    }
    forget(taskId);
    byResource.computeIfAbsent(resource, r -> new ArrayDeque<>()).addLast(waiter);
    waitingFor.put(taskId, resource);
    return true;
  }

  /** {@code resource} was released: counts it and wakes its first waiter, if any. */
  public synchronized Optional<Waiter> released(String resource) {
    releases++;
    return wake(resource);
  }

  /**
   * {@code resource} was released to a worker that runs its waiters itself: counts the release and
   * takes its first waiter and, after it, up to {@code max} in all, the next ones as long as {@code
   * with} accepts them (next to the first); none of them waits any longer.
   */
  public synchronized java.util.List<Waiter> released(
      String resource, int max, java.util.function.BiPredicate<Waiter, Waiter> with) {
    releases++;
    Optional<Waiter> first = wake(resource);
    if (first.isEmpty()) {
      return java.util.List.of();
    }
    java.util.List<Waiter> taken = new java.util.ArrayList<>();
    taken.add(first.get());
    Deque<Waiter> waiters = byResource.get(resource);
    while (waiters != null
        && taken.size() < max
        && !waiters.isEmpty()
        && with.test(first.get(), waiters.peekFirst())) {
      taken.add(wake(resource).orElseThrow());
      waiters = byResource.get(resource);
    }
    return taken;
  }

  /** The first task waiting for {@code resource}, no longer waiting; empty if none waits. */
  private Optional<Waiter> wake(String resource) {
    Deque<Waiter> waiters = byResource.get(resource);
    if (waiters == null) {
      return Optional.empty();
    }
    Waiter first = waiters.pollFirst();
    if (waiters.isEmpty()) {
      byResource.remove(resource);
    }
    if (first != null) {
      waitingFor.remove(first.taskId());
    }
    return Optional.ofNullable(first);
  }

  /**
   * The copy kept of {@code task}, if it waits, becomes {@code task} (dispatched again with its
   * task key: a new payload and version); returns whether it waits.
   */
  public synchronized boolean replaced(StoredTask task) {
    String resource = waitingFor.get(task.id());
    if (resource == null) {
      return false;
    }
    Deque<Waiter> line = new ArrayDeque<>();
    for (Waiter w : byResource.get(resource)) {
      line.addLast(w.taskId().equals(task.id()) ? new Waiter(w.taskId(), w.queue(), task) : w);
    }
    byResource.put(resource, line);
    return true;
  }

  /** The task no longer waits (cancelled); returns whether it did. */
  public synchronized boolean forget(UUID taskId) {
    String resource = waitingFor.remove(taskId);
    if (resource == null) {
      return false;
    }
    Deque<Waiter> waiters = byResource.get(resource);
    waiters.removeIf(w -> w.taskId().equals(taskId));
    if (waiters.isEmpty()) {
      byResource.remove(resource);
    }
    return true;
  }

  /** The tasks waiting for {@code resource}, first come first. */
  public synchronized java.util.List<UUID> waiting(String resource) {
    Deque<Waiter> waiters = byResource.get(resource);
    return waiters == null ? java.util.List.of() : waiters.stream().map(Waiter::taskId).toList();
  }

  /** How many tasks wait for {@code resource}. */
  public synchronized int count(String resource) {
    Deque<Waiter> waiters = byResource.get(resource);
    return waiters == null ? 0 : waiters.size();
  }

  /** The tasks waiting for any resource. */
  public synchronized java.util.Set<UUID> waitingIds() {
    return java.util.Set.copyOf(waitingFor.keySet());
  }

  /** The resource {@code taskId} waits for, if it waits. */
  public synchronized Optional<String> waitsFor(UUID taskId) {
    return Optional.ofNullable(waitingFor.get(taskId));
  }

  /** How many tasks wait, for any resource. */
  public synchronized int size() {
    return waitingFor.size();
  }
}
