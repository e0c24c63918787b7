package io.taskgate.store;

import io.taskgate.api.TaskStatus;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Which stored tasks a bulk action (requeue, delete) takes: every condition given must hold.
 *
 * @param statuses in one of these statuses; not empty
 * @param type of this task type (its full class name)
 * @param queue on this queue
 * @param rateKey with this rate-limit key
 * @param errorContains whose last error contains this text (as it is, case and all)
 * @param changedBefore last changed (for an ended task: ended) before this instant
 * @param changedAfter last changed at or after this instant
 */
public record TaskFilter(
    Set<TaskStatus> statuses,
    Optional<String> type,
    Optional<String> queue,
    Optional<String> rateKey,
    Optional<String> errorContains,
    Optional<Instant> changedBefore,
    Optional<Instant> changedAfter) {

  /** Checks the fields; keeps a copy of the statuses. */
  public TaskFilter {
    Objects.requireNonNull(statuses, "statuses");
    if (statuses.isEmpty()) {
      throw new IllegalArgumentException("a task filter needs at least one status");
    }
    statuses = Set.copyOf(EnumSet.copyOf(statuses));
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(rateKey, "rateKey");
    Objects.requireNonNull(errorContains, "errorContains");
    Objects.requireNonNull(changedBefore, "changedBefore");
    Objects.requireNonNull(changedAfter, "changedAfter");
  }

  /** The tasks in one of {@code statuses}, with no other condition. */
  public static TaskFilter of(Set<TaskStatus> statuses) {
    return new TaskFilter(
        statuses,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty());
  }

  /** This filter for tasks of {@code type} only. */
  public TaskFilter withType(String type) {
    return new TaskFilter(
        statuses, Optional.of(type), queue, rateKey, errorContains, changedBefore, changedAfter);
  }

  /** This filter for tasks on {@code queue} only. */
  public TaskFilter withQueue(String queue) {
    return new TaskFilter(
        statuses, type, Optional.of(queue), rateKey, errorContains, changedBefore, changedAfter);
  }

  /** This filter for tasks with rate-limit key {@code rateKey} only. */
  public TaskFilter withRateKey(String rateKey) {
    return new TaskFilter(
        statuses, type, queue, Optional.of(rateKey), errorContains, changedBefore, changedAfter);
  }

  /** This filter for tasks last changed before {@code before} only. */
  public TaskFilter withChangedBefore(Instant before) {
    return new TaskFilter(
        statuses, type, queue, rateKey, errorContains, Optional.of(before), changedAfter);
  }
}
