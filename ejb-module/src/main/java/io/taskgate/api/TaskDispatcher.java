package io.taskgate.api;

import io.taskgate.core.task.Recurrence;
import java.util.List;
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
   * Stores all of {@code tasks} in one transaction and runs each as {@code options} say (same
   * queue, delay or instant for all). Either every task is stored or none is: a task without a
   * handler refuses the whole call before anything is stored. Much cheaper per task than one {@link
   * #dispatch} each when there are many.
   *
   * @return one receipt per task, in the order of {@code tasks}; each estimated start is the key's
   *     next free slot at the call, so tasks of one key in the same call get the same estimate
   * @throws IllegalArgumentException if no handler runs one of the task types, or {@code options}
   *     carry a task key (a key identifies one task, not a batch)
   */
  List<TaskReceipt> dispatchAll(List<? extends Task> tasks, DispatchOptions options);

  /** {@link #dispatchAll(List, DispatchOptions)}, each task as soon as possible. */
  default List<TaskReceipt> dispatchAll(List<? extends Task> tasks) {
    return dispatchAll(tasks, DispatchOptions.now());
  }

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
