package io.taskgate.api;

import io.taskgate.core.task.Recurrence;
import java.util.UUID;

/**
 * Stores tasks and hands them to their handlers. Inject it anywhere: {@code @Inject TaskDispatcher
 * dispatcher}. A dispatch returns once the task is stored, so nothing is lost whatever happens
 * next.
 */
public interface TaskDispatcher {

  /** Runs {@code task} as soon as possible on its handler's queue. */
  default TaskReceipt dispatch(Task task) {
    return dispatch(task, DispatchOptions.now());
  }

  /**
   * Stores {@code task} and runs it as {@code options} say.
   *
   * @throws IllegalArgumentException if no handler runs this task type
   */
  TaskReceipt dispatch(Task task, DispatchOptions options);

  /**
   * Stores a recurring task: it runs at every occurrence of {@code recurrence} until the recurrence
   * ends.
   */
  TaskReceipt schedule(Task task, Recurrence recurrence, DispatchOptions options);

  /**
   * Cancels a task that has not started: it will never run and its status becomes CANCELLED.
   * Returns false when there is no such task or it has already started or finished.
   */
  boolean cancel(UUID taskId);
}
