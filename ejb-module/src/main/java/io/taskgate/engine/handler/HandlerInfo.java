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
 * @param throttling the job throttlers its tasks pass (mutex, semaphore, windows); empty: none
 */
public record HandlerInfo(
    Class<? extends Task> taskType,
    Class<?> beanClass,
    String queue,
    RetryPolicy retry,
    Optional<Duration> timeout,
    Optional<GateSpec> gate,
    Optional<ThrottlingSpec> throttling) {

  /** Checks that the gate and the throttling, possibly empty, are present. */
  public HandlerInfo {
    Objects.requireNonNull(gate, "gate");
    Objects.requireNonNull(throttling, "throttling");
  }

  /** A handler whose tasks pass no job throttler. */
  public HandlerInfo(
      Class<? extends Task> taskType,
      Class<?> beanClass,
      String queue,
      RetryPolicy retry,
      Optional<Duration> timeout,
      Optional<GateSpec> gate) {
    this(taskType, beanClass, queue, retry, timeout, gate, Optional.empty());
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
    return new HandlerInfo(taskType, beanClass, queue, retry, timeout, gate, throttling);
  }

  /** This handler with other job throttlers. */
  public HandlerInfo withThrottling(Optional<ThrottlingSpec> throttling) {
    return new HandlerInfo(taskType, beanClass, queue, retry, timeout, gate, throttling);
  }

  /**
   * How the handler's tasks are unique ({@link io.taskgate.api.Unique}), if it says.
   *
   * @throws IllegalArgumentException naming the attribute, if its {@code @Unique} is invalid
   */
  public Optional<io.taskgate.api.UniquePolicy> unique() {
    io.taskgate.api.Unique unique = beanClass.getAnnotation(io.taskgate.api.Unique.class);
    return unique == null ? Optional.empty() : Optional.of(io.taskgate.api.UniquePolicy.of(unique));
  }
}
