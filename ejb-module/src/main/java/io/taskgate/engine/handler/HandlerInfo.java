package io.taskgate.engine.handler;

import io.taskgate.api.Task;
import io.taskgate.core.task.RetryPolicy;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What the engine knows about one handler, read from its {@code @TaskHandler} at deployment.
 *
 * @param taskType the task type it runs
 * @param beanClass the handler bean's class
 * @param queue its default queue
 * @param retry its retry policy
 * @param timeout the per-attempt time limit, if any
 * @param gate how its tasks pass the rate-limit gate; empty: they are not throttled
 */
public record HandlerInfo(
    Class<? extends Task> taskType,
    Class<?> beanClass,
    String queue,
    RetryPolicy retry,
    Optional<Duration> timeout,
    Optional<GateSpec> gate) {

  /** Checks that the gate, possibly empty, is present. */
  public HandlerInfo {
    Objects.requireNonNull(gate, "gate");
  }

  /** A handler whose tasks are not throttled. */
  public HandlerInfo(
      Class<? extends Task> taskType,
      Class<?> beanClass,
      String queue,
      RetryPolicy retry,
      Optional<Duration> timeout) {
    this(taskType, beanClass, queue, retry, timeout, Optional.empty());
  }

  /** The task type's name, as stored. */
  public String typeName() {
    return taskType.getName();
  }

  /** This handler with another gate. */
  public HandlerInfo withGate(Optional<GateSpec> gate) {
    return new HandlerInfo(taskType, beanClass, queue, retry, timeout, gate);
  }
}
