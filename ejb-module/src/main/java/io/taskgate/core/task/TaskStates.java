package io.taskgate.core.task;

import io.taskgate.api.TaskStatus;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The allowed moves between {@link TaskStatus} values, as an explicit table. Every move not listed
 * is forbidden: COMPLETED never moves, and FAILED and CANCELLED only back to QUEUED, when an
 * operator requeues the task.
 *
 * <table>
 *   <caption>Allowed moves</caption>
 *   <tr><th>from</th><th>to</th><th>when</th></tr>
 *   <tr><td>QUEUED</td><td>IN_PROGRESS</td><td>an attempt starts</td></tr>
 *   <tr><td>QUEUED</td><td>CANCELLED</td><td>cancelled before it ran</td></tr>
 *   <tr><td>QUEUED</td><td>FAILED</td><td>rejected before running (e.g. rate limit)</td></tr>
 *   <tr><td>QUEUED</td><td>QUEUED</td><td>payload replaced or rescheduled</td></tr>
 *   <tr><td>QUEUED</td><td>COMPLETED</td><td>a recurring series ends without another run: its
 *       remaining occurrences were skipped (e.g. a rate-limit slot past its runUntil)</td></tr>
 *   <tr><td>IN_PROGRESS</td><td>COMPLETED</td><td>the attempt succeeded</td></tr>
 *   <tr><td>IN_PROGRESS</td><td>FAILED</td><td>the attempt failed for good</td></tr>
 *   <tr><td>IN_PROGRESS</td><td>QUEUED</td><td>retry, next recurring occurrence, crash
 *       recovery</td></tr>
 *   <tr><td>IN_PROGRESS</td><td>CANCELLED</td><td>cancelled after its claim but before its
 *       handler started: a rate-limited task is claimed shortly before its reserved slot</td></tr>
 *   <tr><td>FAILED</td><td>QUEUED</td><td>requeued by an operator</td></tr>
 *   <tr><td>CANCELLED</td><td>QUEUED</td><td>requeued by an operator</td></tr>
 * </table>
 */
public final class TaskStates {
  private static final Map<TaskStatus, Set<TaskStatus>> NEXT = table();

  private TaskStates() {}

  /** Whether a task may move from {@code from} to {@code to}. */
  public static boolean allowed(TaskStatus from, TaskStatus to) {
    return next(from).contains(requireStatus("to", to));
  }

  /**
   * Refuses a forbidden move.
   *
   * @throws IllegalStateException "Task &lt;id&gt; cannot move from X to Y" if the move is not
   *     {@link #allowed}
   */
  public static void check(Object taskId, TaskStatus from, TaskStatus to) {
    if (!allowed(from, to)) {
      throw new IllegalStateException("Task " + taskId + " cannot move from " + from + " to " + to);
    }
  }

  /**
   * The statuses a task in {@code from} may move to (empty for COMPLETED, QUEUED alone for FAILED
   * and CANCELLED); unmodifiable.
   */
  public static Set<TaskStatus> next(TaskStatus from) {
    return NEXT.get(requireStatus("from", from));
  }

  private static Map<TaskStatus, Set<TaskStatus>> table() {
    Map<TaskStatus, Set<TaskStatus>> next = new EnumMap<>(TaskStatus.class);
    for (TaskStatus status : TaskStatus.values()) {
      next.put(status, Collections.unmodifiableSet(EnumSet.noneOf(TaskStatus.class)));
    }
    next.put(
        TaskStatus.QUEUED,
        Collections.unmodifiableSet(
            EnumSet.of(
                TaskStatus.IN_PROGRESS,
                TaskStatus.CANCELLED,
                TaskStatus.FAILED,
                TaskStatus.QUEUED,
                TaskStatus.COMPLETED)));
    next.put(
        TaskStatus.IN_PROGRESS,
        Collections.unmodifiableSet(
            EnumSet.of(
                TaskStatus.COMPLETED, TaskStatus.FAILED, TaskStatus.QUEUED, TaskStatus.CANCELLED)));
    // an operator's requeue: a new series of attempts of the same task
    next.put(TaskStatus.FAILED, Collections.unmodifiableSet(EnumSet.of(TaskStatus.QUEUED)));
    next.put(TaskStatus.CANCELLED, Collections.unmodifiableSet(EnumSet.of(TaskStatus.QUEUED)));
    return Collections.unmodifiableMap(next);
  }

  private static TaskStatus requireStatus(String name, TaskStatus status) {
    if (status == null) {
      throw new IllegalArgumentException("Task status '" + name + "' must not be null");
    }
    return status;
  }
}
