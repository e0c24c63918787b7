package io.taskgate.engine;

import io.taskgate.api.Task;
import io.taskgate.core.task.RetryPolicy;
import java.time.Duration;
import java.util.Optional;

/**
 * What the engine knows about one handler, read from its {@code @TaskHandler} at deployment.
 *
 * @param taskType the task type it runs
 * @param beanClass the handler bean's class
 * @param queue its default queue
 * @param retry its retry policy
 * @param timeout the per-attempt time limit, if any
 */
public record HandlerInfo(
    Class<? extends Task> taskType,
    Class<?> beanClass,
    String queue,
    RetryPolicy retry,
    Optional<Duration> timeout) {

  /** The task type's name, as stored. */
  public String typeName() {
    return taskType.getName();
  }
}
