package io.taskgate.api;

import java.util.List;
import java.util.UUID;

/**
 * Stores tasks and hands them to their handlers. Inject it anywhere: {@code @Inject TaskDispatcher
 * dispatcher}. A dispatch returns once the task is stored, so nothing is lost whatever happens
 * next.
 *
 * <p>Before anything is stored, every task is checked: a handler must run its type, its values must
 * meet its type's Bean Validation constraints ({@link InvalidTaskException}), its JSON form must
 * fit {@code taskgate.dispatch.max-payload-bytes} ({@link TaskTooLargeException}), and it must come
 * due within {@link DispatchOptions#MAX_DELAY} of now ({@link InvalidDispatchOptionException}). A
 * refused call stores nothing.
 */
public interface TaskDispatcher {

  /** Runs {@code task} as soon as possible on its handler's queue. */
  default TaskReceipt dispatch(Task task) {
    return dispatch(task, DispatchOptions.now());
  }

  /**
   * Stores {@code task} and runs it as {@code options} say.
   *
   * @throws IllegalArgumentException if no handler runs this task type; its subclasses {@link
   *     InvalidTaskException}, {@link TaskTooLargeException} and {@link
   *     InvalidDispatchOptionException} (an instant more than {@link DispatchOptions#MAX_DELAY}
   *     from now) when the task or its options are refused
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
   *     carry a task key (a key identifies one task, not a batch); {@link InvalidTaskException},
   *     {@link TaskTooLargeException} (naming the first task refused, {@code tasks[i]}) and {@link
   *     InvalidDispatchOptionException} as for {@link #dispatch(Task, DispatchOptions)}
   */
  List<TaskReceipt> dispatchAll(List<? extends Task> tasks, DispatchOptions options);

  /** {@link #dispatchAll(List, DispatchOptions)}, each task as soon as possible. */
  default List<TaskReceipt> dispatchAll(List<? extends Task> tasks) {
    return dispatchAll(tasks, DispatchOptions.now());
  }

  /**
   * Stores a recurring task: it runs at every occurrence of {@code recurrence} until the recurrence
   * ends.
   *
   * @throws IllegalArgumentException if no handler runs this task type, {@code options} carry a
   *     delay or an instant, or the recurrence has no occurrence; {@link
   *     InvalidDispatchOptionException} (option {@code recurrence}) if its first occurrence is more
   *     than {@link DispatchOptions#MAX_DELAY} from now; {@link InvalidTaskException} and {@link
   *     TaskTooLargeException} as for {@link #dispatch(Task, DispatchOptions)}
   */
  TaskReceipt schedule(Task task, Recurrence recurrence, DispatchOptions options);

  /**
   * Cancels a task that has not started: it will never run and its status becomes CANCELLED.
   * Returns false when there is no such task or it has already started or finished.
   */
  boolean cancel(UUID taskId);
}
