package io.taskgate.engine.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.InvalidTaskException;
import io.taskgate.api.InvalidTaskException.Violation;
import io.taskgate.api.Task;
import jakarta.validation.Valid;
import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Bean Validation on task records, with Hibernate Validator as Payara ships it. */
class TaskValidationTest {
  private static final ValidatorFactory FACTORY = Validation.buildDefaultValidatorFactory();
  private final TaskValidation validation = TaskValidation.of(FACTORY);

  record Sync(@NotNull UUID tenantId) implements Task {}

  record Address(@NotBlank String city) {}

  record Order(@NotBlank String name, @Max(10) int copies, @Valid @NotNull Address to)
      implements Task {}

  record Plain(String anything) implements Task {}

  /** No constraint of its own: only the cascade into the address. */
  record Shipment(@Valid Address to) implements Task {}

  @AfterAll
  static void close() {
    FACTORY.close();
  }

  @Test
  void aValidTaskAndOneWithoutConstraintsPass() {
    validation.check(new Sync(UUID.randomUUID()), null);
    validation.check(new Order("q3", 10, new Address("Lyon")), null);
    validation.check(new Plain(null), null);
  }

  @Test
  void aTypeWhoseOnlyConstraintsAreCascadedIsStillChecked() {
    validation.check(new Shipment(new Address("Lyon")), null);

    assertThatThrownBy(() -> validation.check(new Shipment(new Address(" ")), null))
        .isInstanceOfSatisfying(
            InvalidTaskException.class,
            e ->
                assertThat(e.violations())
                    .containsExactly(new Violation("to.city", "must not be blank", " ")));
  }

  @Test
  void aMissingFieldIsRefusedNamingTheTypeFieldAndValue() {
    assertThatThrownBy(() -> validation.check(new Sync(null), null))
        .isInstanceOfSatisfying(
            InvalidTaskException.class,
            e -> {
              assertThat(e.taskType()).isEqualTo(Sync.class.getName());
              assertThat(e.violations())
                  .containsExactly(new Violation("tenantId", "must not be null", "null"));
            })
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid task " + Sync.class.getName() + ": tenantId must not be null, was null");
  }

  @Test
  void everyBrokenFieldIsListedByPathAndTheBatchPositionIsNamed() {
    String longName = " ".repeat(300);
    assertThatThrownBy(() -> validation.check(new Order(longName, 11, new Address("")), "tasks[3]"))
        .isInstanceOfSatisfying(
            InvalidTaskException.class,
            e ->
                assertThat(e.violations())
                    .containsExactly(
                        new Violation("copies", "must be less than or equal to 10", "11"),
                        new Violation(
                            "name", "must not be blank", " ".repeat(200) + "…"), // shortened
                        new Violation("to.city", "must not be blank", "")))
        .hasMessageStartingWith("Invalid task " + Order.class.getName() + " (tasks[3]): copies");
  }

  @Test
  void messagesAreEnglishWhateverTheDefaultLocale() {
    Locale before = Locale.getDefault();
    Locale.setDefault(Locale.GERMANY);
    try (ValidatorFactory german = Validation.buildDefaultValidatorFactory()) {
      assertThatThrownBy(() -> TaskValidation.of(german).check(new Sync(null), null))
          .hasMessageEndingWith("tenantId must not be null, was null");
    } finally {
      Locale.setDefault(before);
    }
  }
}
