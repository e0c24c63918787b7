package io.taskgate.engine.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.Backoff;
import io.taskgate.api.Handler;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** How the extension reads and checks handler classes (the deployment-time rules). */
class TaskgateExtensionTest {
  record Ping(String id) implements Task {}

  @TaskHandler(
      queue = "mail",
      maxAttempts = 4,
      backoff = Backoff.FIXED,
      retryDelay = "PT2S",
      timeout = "PT30S")
  static class PingHandler implements Handler<Ping> {
    @Override
    public void handle(Ping task, TaskContext context) {}
  }

  static class SubPingHandler extends PingHandler {}

  @TaskHandler
  static class NotAHandler {}

  @TaskHandler
  @SuppressWarnings("rawtypes")
  static class RawHandler implements Handler {
    @Override
    public void handle(Task task, TaskContext context) {}
  }

  @TaskHandler
  static class GenericHandler<T extends Task> implements Handler<T> {
    @Override
    public void handle(T task, TaskContext context) {}
  }

  abstract static class BaseHandler<T extends Task> implements Handler<T> {}

  abstract static class MiddleHandler<X extends Task, Y> extends BaseHandler<X> {}

  @TaskHandler
  static class ConcreteHandler extends MiddleHandler<Ping, String> {
    @Override
    public void handle(Ping task, TaskContext context) {}
  }

  @Test
  void aSubclassOfAGenericBaseHandlerNamesTheTaskType() {
    assertThat(TaskgateExtension.taskTypeOf(ConcreteHandler.class)).contains(Ping.class);
    assertThat(TaskgateExtension.taskTypeOf(MiddleHandler.class)).isEmpty();
  }

  @TaskHandler(retryDelay = "soon")
  static class BadDelay extends PingHandler {}

  @TaskHandler(timeout = "30s")
  static class BadTimeout extends PingHandler {}

  @TaskHandler(timeout = "PT0S")
  static class ZeroTimeout extends PingHandler {}

  @TaskHandler(maxAttempts = 0)
  static class NoAttempts extends PingHandler {}

  @TaskHandler(queue = " ")
  static class BlankQueue extends PingHandler {}

  @Test
  void readsTheTaskTypeAndEveryOption() {
    HandlerInfo info = describe(PingHandler.class);

    assertThat(info.taskType()).isEqualTo(Ping.class);
    assertThat(info.queue()).isEqualTo("mail");
    assertThat(info.retry().maxAttempts()).isEqualTo(4);
    assertThat(info.retry().delayAfter(3, 0.5)).isEqualTo(Duration.ofSeconds(2));
    assertThat(info.timeout()).contains(Duration.ofSeconds(30));
    assertThat(describe(SubPingHandler.class).taskType()).isEqualTo(Ping.class);
  }

  @Test
  void noTimeoutByDefault() {
    @TaskHandler
    class Plain implements Handler<Ping> {
      @Override
      public void handle(Ping task, TaskContext context) {}
    }

    assertThat(describe(Plain.class).timeout()).isEqualTo(Optional.empty());
  }

  static Stream<Arguments> broken() {
    return Stream.of(
        Arguments.of(NotAHandler.class, "does not implement io.taskgate.api.Handler<T>"),
        Arguments.of(RawHandler.class, "does not implement io.taskgate.api.Handler<T>"),
        Arguments.of(GenericHandler.class, "with a concrete task type T"),
        Arguments.of(BadDelay.class, "retryDelay 'soon' is not an ISO-8601 duration"),
        Arguments.of(
            BadTimeout.class, "option timeout '30s' is not an ISO-8601 duration such as PT30S"),
        Arguments.of(ZeroTimeout.class, "option timeout must be positive, was 'PT0S'"),
        Arguments.of(NoAttempts.class, "maxAttempts must be at least 1, was 0"),
        Arguments.of(BlankQueue.class, "option queue must not be blank, was ' '"));
  }

  @ParameterizedTest
  @MethodSource("broken")
  void brokenHandlersAreRefusedWithTheOptionAndTheValue(Class<?> handler, String message) {
    assertThatThrownBy(() -> describe(handler))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message);
  }

  @Test
  void aSecondHandlerForTheSameTaskTypeIsRefusedNamingBoth() {
    TaskgateExtension extension = new TaskgateExtension();
    extension.register(describe(PingHandler.class));

    assertThatThrownBy(() -> extension.register(describe(SubPingHandler.class)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "two handlers for task type "
                + Ping.class.getName()
                + ": "
                + PingHandler.class.getName()
                + " and "
                + SubPingHandler.class.getName()
                + "; keep exactly one");
    assertThat(extension.handlers()).containsOnlyKeys(Ping.class.getName());
  }

  private static HandlerInfo describe(Class<?> handler) {
    return TaskgateExtension.describe(handler, handler.getAnnotation(TaskHandler.class));
  }
}
