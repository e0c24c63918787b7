package io.taskgate.web.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.InvalidTaskException;
import io.taskgate.api.InvalidTaskException.Violation;
import io.taskgate.engine.dispatch.TaskValidation;
import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The example tasks' constraints: what the dispatcher refuses before storing them. */
class ExampleTasksTest {
  private static final ValidatorFactory FACTORY = Validation.buildDefaultValidatorFactory();
  private final TaskValidation validation = TaskValidation.of(FACTORY);

  @AfterAll
  static void close() {
    FACTORY.close();
  }

  @Test
  void aSyncNeedsItsTenant() {
    validation.check(new SyncTenantData(UUID.randomUUID()), null);

    assertThatThrownBy(() -> validation.check(new SyncTenantData(null), null))
        .isInstanceOfSatisfying(
            InvalidTaskException.class,
            e ->
                assertThat(e.violations())
                    .containsExactly(new Violation("tenantId", "must not be null", "null")))
        .hasMessage(
            "Invalid task io.taskgate.web.examples.SyncTenantData: tenantId must not be null, was"
                + " null");
  }

  @Test
  void aReportNeedsANameOfAtMost200Characters() {
    validation.check(new UnreliableReport("q3"), null);
    validation.check(new UnreliableReport("r".repeat(200)), null);

    assertThatThrownBy(() -> validation.check(new UnreliableReport(" "), null))
        .hasMessageEndingWith("name must not be blank, was  ");
    assertThatThrownBy(() -> validation.check(new UnreliableReport("r".repeat(201)), null))
        .isInstanceOfSatisfying(
            InvalidTaskException.class,
            e ->
                assertThat(e.violations())
                    .extracting(Violation::field, Violation::message)
                    .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                            "name", "size must be between 0 and 200")));
  }
}
