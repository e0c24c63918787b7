package io.taskgate.engine.admin.dto;

import io.taskgate.api.TaskStatus;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Which ended tasks a bulk action takes (requeue, delete): every condition given must hold.
 *
 * @param statuses in one of these statuses (ended ones: COMPLETED, FAILED, CANCELLED); not empty
 * @param type of this task type (full class name, or the simple name of a registered one)
 * @param queue on this queue
 * @param rateKey with this rate-limit key
 * @param errorContains whose last error contains this text (as it is, case and all)
 * @param olderThan ended at least this long ago
 * @param newerThan ended less than this long ago
 */
public record EndedTasks(
    Set<TaskStatus> statuses,
    Optional<String> type,
    Optional<String> queue,
    Optional<String> rateKey,
    Optional<String> errorContains,
    Optional<Duration> olderThan,
    Optional<Duration> newerThan) {

  /** Checks that every status is an ended one; keeps a copy of them. */
  public EndedTasks {
    Objects.requireNonNull(statuses, "statuses");
    if (statuses.isEmpty() || statuses.stream().anyMatch(s -> !s.terminal())) {
      throw new IllegalArgumentException(
          "status must be one or more of COMPLETED, FAILED and CANCELLED, was " + statuses);
    }
    statuses = Set.copyOf(EnumSet.copyOf(statuses));
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(rateKey, "rateKey");
    Objects.requireNonNull(errorContains, "errorContains");
    Objects.requireNonNull(olderThan, "olderThan");
    Objects.requireNonNull(newerThan, "newerThan");
  }
}
