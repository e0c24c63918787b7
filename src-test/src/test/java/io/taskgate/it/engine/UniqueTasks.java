package io.taskgate.it.engine;

import io.taskgate.api.Handler;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import io.taskgate.api.TaskStatus;
import io.taskgate.api.Unique;
import io.taskgate.api.UniqueConflict;
import jakarta.inject.Inject;

/** Unique task types, one per policy, for the in-container tests of {@link Unique}. */
public final class UniqueTasks {
  private UniqueTasks() {}

  /** A welcome mail: unique by its whole payload. */
  public record WelcomeMail(String id, String to) implements Task {}

  /** At most one welcome mail per address an hour: queued, running or sent. */
  @TaskHandler
  @Unique(
      onConflict = UniqueConflict.KEEP,
      states = {TaskStatus.QUEUED, TaskStatus.IN_PROGRESS, TaskStatus.COMPLETED},
      period = "PT1H")
  public static class WelcomeMailHandler implements Handler<WelcomeMail> {
    @Inject Probe probe;

    @Override
    public void handle(WelcomeMail task, TaskContext context) {
      probe.record(task.id(), "sent:" + task.to());
    }
  }

  /** A charge of an order. */
  public record Charge(String id, String order) implements Task {}

  /** A second charge of an order while the first is queued or running is refused. */
  @TaskHandler
  @Unique(onConflict = UniqueConflict.REJECT)
  public static class ChargeHandler implements Handler<Charge> {
    @Inject Probe probe;

    @Override
    public void handle(Charge task, TaskContext context) {
      probe.record(task.id(), "charged:" + task.order());
    }
  }
}
