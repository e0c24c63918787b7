package io.taskgate.engine.throttle.concurrency;

import io.taskgate.api.Concurrency;
import io.taskgate.api.Handler;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import io.taskgate.core.throttle.LocalThrottlerState;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.TaskgateExtension;
import io.taskgate.engine.throttle.ThrottledAttempt;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.store.StoredTask;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Task types with concurrency limits, and their attempts. */
final class ConcurrencyFixture {
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  /** An export of one tenant's data. */
  public record Export(String tenant, int n) implements Task {}

  abstract static class ExportHandler implements Handler<Export> {
    @Override
    public void handle(Export task, TaskContext context) {}
  }

  @TaskHandler
  @Concurrency(limit = 2, key = "tenant-{tenant}")
  static class TwoPerTenant extends ExportHandler {}

  @TaskHandler
  @Concurrency(limit = 1)
  static class OneAtATime extends ExportHandler {}

  @TaskHandler
  static class Unlimited extends ExportHandler {}

  @TaskHandler
  @Concurrency(limit = 0, key = "{tenant}")
  static class NoneAtATime extends ExportHandler {}

  @TaskHandler
  @Concurrency(limit = 2, key = "{customer}")
  static class ByCustomer extends ExportHandler {}

  final ConcurrencyProvider provider = new ConcurrencyProvider(Throttles.of(List.of()), null);

  ConcurrencyFixture() {
    this(new LocalThrottlerState());
  }

  ConcurrencyFixture(ThrottlerState state) {
    provider.useState(state);
  }

  /** The handler {@code beanClass} as deployment reads it. */
  static HandlerInfo handler(Class<?> beanClass) {
    return TaskgateExtension.describe(beanClass, beanClass.getAnnotation(TaskHandler.class));
  }

  /** The one throttle of {@code beanClass}. */
  ConcurrencyThrottle throttle(Class<?> beanClass) {
    return (ConcurrencyThrottle) provider.throttlesOf(handler(beanClass)).get(0);
  }

  /** An attempt of a new task exporting {@code tenant}'s data. */
  static ThrottledAttempt attempt(Class<?> beanClass, String tenant) {
    return attempt(beanClass, UUID.randomUUID(), new Export(tenant, 0));
  }

  /** An attempt of task {@code id}. */
  static ThrottledAttempt attempt(Class<?> beanClass, UUID id, Export export) {
    StoredTask task =
        StoredTask.queued(id, Export.class.getName(), "{}", "default", null, T0, null, T0);
    return new ThrottledAttempt(task, handler(beanClass), export);
  }
}
