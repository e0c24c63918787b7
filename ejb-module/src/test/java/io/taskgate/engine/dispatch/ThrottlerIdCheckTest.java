package io.taskgate.engine.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.Handler;
import io.taskgate.api.InvalidTaskException;
import io.taskgate.api.Mutex;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.TaskgateExtension;
import org.junit.jupiter.api.Test;

/** A task whose throttler id cannot be filled is refused at dispatch, nothing stored. */
class ThrottlerIdCheckTest {
  record Import(String tenantId, String batchId) implements Task {}

  @TaskHandler
  @Mutex(value = "import-{tenantId}", owner = "{batchId}")
  static class ImportHandler implements Handler<Import> {
    @Override
    public void handle(Import task, TaskContext context) {}
  }

  private final HandlerInfo handler =
      TaskgateExtension.describe(
          ImportHandler.class, ImportHandler.class.getAnnotation(TaskHandler.class));

  @Test
  void anIdLongerThan100CharactersOrANullValueIsRefusedNamingTheThrottler() {
    TaskValidation.checkThrottlers(new Import("acme", "b1"), handler, null);

    assertThatThrownBy(
            () -> TaskValidation.checkThrottlers(new Import("t".repeat(100), "b1"), handler, null))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageContaining("mutex")
        .hasMessageContaining("107 characters; at most 100")
        .hasMessageContaining("import-{tenantId}");
    assertThatThrownBy(
            () -> TaskValidation.checkThrottlers(new Import("acme", null), handler, "tasks[2]"))
        .isInstanceOf(InvalidTaskException.class)
        .hasMessageContaining("tasks[2]")
        .hasMessageContaining("{batchId}");
    InvalidTaskException e =
        (InvalidTaskException)
            org.assertj.core.api.Assertions.catchThrowable(
                () -> TaskValidation.checkThrottlers(new Import(null, null), handler, null));
    assertThat(e.violations()).hasSize(2);
  }
}
