package io.taskgate.engine.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.Handler;
import io.taskgate.api.OverflowBehavior;
import io.taskgate.api.RateLimit;
import io.taskgate.api.RateLimitPolicy;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import io.taskgate.engine.LogCapture;
import io.taskgate.engine.handler.GateSpec.KeySource;
import io.taskgate.engine.handler.GateSpec.PolicySource;
import java.time.Duration;
import java.util.Optional;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** How the extension resolves a handler's rate-limit gate at deployment, and what it refuses. */
class HandlerRateLimitTest {
  static final RateLimitPolicy FIFTEEN_PER_MINUTE = RateLimitPolicy.of(15, Duration.ofMinutes(1));

  record Sync(String tenant) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return tenant;
    }
  }

  record Report(String account) implements Task {}

  @TaskHandler
  @RateLimit(permits = 15, period = "PT1M")
  static class SyncHandler implements Handler<Sync> {
    @Override
    public void handle(Sync task, TaskContext context) {}
  }

  static class InheritingSyncHandler extends SyncHandler {}

  @TaskHandler
  @RateLimit(
      permits = 2,
      period = "PT1S",
      burst = 1,
      throttleRetries = false,
      startEmpty = true,
      maxReservationHorizon = "PT10M",
      overflow = RateLimit.Overflow.DISCARD)
  static class EveryOptionHandler implements Handler<Sync> {
    @Override
    public void handle(Sync task, TaskContext context) {}
  }

  @TaskHandler
  @RateLimit(permits = 15, period = "PT1M")
  static class ReportHandler implements Handler<Report> {
    @Override
    public void handle(Report task, TaskContext context) {}
  }

  @TaskHandler
  @RateLimit(permits = 15, period = "PT1M")
  static class KeyingReportHandler implements Handler<Report> {
    @Override
    public void handle(Report task, TaskContext context) {}

    @Override
    public String rateLimitKey(Report task) {
      return task.account();
    }
  }

  /** Its key replaces the task's own. */
  @TaskHandler
  @RateLimit(permits = 15, period = "PT1M")
  static class KeyingSyncHandler extends SyncHandler {
    @Override
    public String rateLimitKey(Sync task) {
      return "all";
    }
  }

  /** Weighs the task's units itself: it is asked for the key too (the task's, by default). */
  @TaskHandler
  @RateLimit(permits = 15, period = "PT1M")
  static class WeighingSyncHandler extends SyncHandler {
    @Override
    public int rateLimitCost(Sync task) {
      return 3;
    }
  }

  @TaskHandler
  static class UnlimitedHandler implements Handler<Sync> {
    @Override
    public void handle(Sync task, TaskContext context) {}
  }

  @TaskHandler
  @RateLimit(permits = 15, period = "PT1M")
  static class PolicyMethodHandler extends SyncHandler {
    RateLimitPolicy policy = FIFTEEN_PER_MINUTE.withBurst(3);

    @Override
    public RateLimitPolicy rateLimitPolicy() {
      return policy;
    }
  }

  @TaskHandler
  static class PolicyMethodOnlyHandler implements Handler<Report> {
    @Override
    public void handle(Report task, TaskContext context) {}

    @Override
    public RateLimitPolicy rateLimitPolicy() {
      return FIFTEEN_PER_MINUTE;
    }

    @Override
    public String rateLimitKey(Report task) {
      return task.account();
    }
  }

  @TaskHandler
  static class BadPolicyMethodHandler extends UnlimitedHandler {
    @Override
    public RateLimitPolicy rateLimitPolicy() {
      return FIFTEEN_PER_MINUTE.withBurst(0);
    }
  }

  @TaskHandler
  @RateLimit(permits = 0, period = "PT1M")
  static class NoPermits extends UnlimitedHandler {}

  @TaskHandler
  @RateLimit(permits = 15, period = "1m")
  static class BadPeriod extends UnlimitedHandler {}

  @TaskHandler
  @RateLimit(permits = 15, period = "PT0S")
  static class ZeroPeriod extends UnlimitedHandler {}

  @TaskHandler
  @RateLimit(permits = 15, period = "")
  static class EmptyPeriod extends UnlimitedHandler {}

  @TaskHandler
  @RateLimit(permits = 15, period = "PT1M", burst = 0)
  static class NoBurst extends UnlimitedHandler {}

  @TaskHandler
  @RateLimit(permits = 15, period = "PT1M", burst = -2)
  static class NegativeBurst extends UnlimitedHandler {}

  @TaskHandler
  @RateLimit(permits = 15, period = "PT1M", maxReservationHorizon = "-PT1S")
  static class NegativeHorizon extends UnlimitedHandler {}

  @TaskHandler
  @RateLimit(permits = 15, period = "PT1M", maxReservationHorizon = "an hour")
  static class BadHorizon extends UnlimitedHandler {}

  /** Inherits the invalid annotation: invalid even though the method would replace it. */
  static class InvalidAnnotationValidMethod extends NoBurst {
    @Override
    public RateLimitPolicy rateLimitPolicy() {
      return FIFTEEN_PER_MINUTE;
    }
  }

  @Test
  void theAnnotationGivesThePolicyWithItsDefaultsScopedByTheTaskType() {
    GateSpec gate = describe(SyncHandler.class).gate().orElseThrow();

    assertThat(gate.scope().name()).isEqualTo(Sync.class.getName());
    assertThat(gate.policy()).isEqualTo(FIFTEEN_PER_MINUTE);
    assertThat(gate.policy().burst()).isEqualTo(15);
    assertThat(gate.keySource()).isEqualTo(KeySource.TASK);
    assertThat(gate.policySource()).isEqualTo(PolicySource.ANNOTATION);
    assertThat(describe(InheritingSyncHandler.class).gate()).contains(gate);
  }

  @Test
  void everyOptionOfTheAnnotationIsRead() {
    assertThat(describe(EveryOptionHandler.class).gate().orElseThrow().policy())
        .isEqualTo(
            RateLimitPolicy.of(2, Duration.ofSeconds(1))
                .withBurst(1)
                .withThrottleRetries(false)
                .withStartEmpty(true)
                .withMaxReservationHorizon(Duration.ofMinutes(10))
                .withOverflow(OverflowBehavior.DISCARD));
  }

  @Test
  void aHandlerWithoutAPolicyHasNoGate() {
    assertThat(describe(UnlimitedHandler.class).gate()).isEmpty();
  }

  @Test
  void theHandlersKeyMethodIsAKeySourceAndWinsOverTheTasksKey() {
    assertThat(describe(KeyingReportHandler.class).gate().orElseThrow().keySource())
        .isEqualTo(KeySource.HANDLER);
    assertThat(describe(KeyingSyncHandler.class).gate().orElseThrow().keySource())
        .isEqualTo(KeySource.HANDLER);
    assertThat(TaskgateExtension.overridesKey(SyncHandler.class)).isFalse();
    assertThat(TaskgateExtension.overridesKey(KeyingSyncHandler.class)).isTrue();
  }

  @Test
  void aHandlerThatWeighsItsTasksIsAskedForTheirKeyAndCost() {
    assertThat(describe(WeighingSyncHandler.class).gate().orElseThrow().keySource())
        .isEqualTo(KeySource.HANDLER);
  }

  @Test
  void aPolicyWithoutAKeySourceWarnsOnceAndLeavesTheTypeUngated() {
    try (LogCapture log = new LogCapture(TaskgateExtension.class, Level.WARNING)) {
      assertThat(describe(ReportHandler.class).gate()).isEmpty();

      assertThat(log.messages(Level.WARNING))
          .containsExactly(
              "Taskgate handler "
                  + ReportHandler.class.getName()
                  + ": task type "
                  + Report.class.getName()
                  + " has a rate-limit policy but no key, so its tasks run unthrottled: implement"
                  + " io.taskgate.api.RateLimitedTask on Report or override rateLimitKey(Report)"
                  + " in the handler");
    }
  }

  @Test
  void handlersWithAKeySourceOrWithoutAPolicyDoNotWarn() {
    try (LogCapture log = new LogCapture(TaskgateExtension.class, Level.WARNING)) {
      describe(SyncHandler.class);
      describe(KeyingReportHandler.class);
      describe(UnlimitedHandler.class);

      assertThat(log.messages(Level.WARNING)).isEmpty();
    }
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of(
            NoPermits.class,
            "@RateLimit: Invalid rate-limit policy: permits must be at least 1, was 0"),
        Arguments.of(
            BadPeriod.class,
            "option @RateLimit(period) '1m' is not an ISO-8601 duration such as PT1M"),
        Arguments.of(
            EmptyPeriod.class,
            "option @RateLimit(period) '' is not an ISO-8601 duration such as PT1M"),
        Arguments.of(
            ZeroPeriod.class,
            "@RateLimit: Invalid rate-limit policy: period must be positive, was PT0S"),
        Arguments.of(
            NoBurst.class,
            "@RateLimit: Invalid rate-limit policy: burst must be at least 1, was 0"),
        Arguments.of(
            NegativeBurst.class,
            "@RateLimit: Invalid rate-limit policy: burst must be at least 1, was -2"),
        Arguments.of(
            NegativeHorizon.class,
            "@RateLimit: Invalid rate-limit policy: maxReservationHorizon must not be negative, was"
                + " PT-1S"),
        Arguments.of(
            BadHorizon.class,
            "option @RateLimit(maxReservationHorizon) 'an hour' is not an ISO-8601 duration such as"
                + " PT1H"),
        Arguments.of(
            InvalidAnnotationValidMethod.class,
            "@RateLimit: Invalid rate-limit policy: burst must be at least 1, was 0"));
  }

  @ParameterizedTest
  @MethodSource("invalid")
  void anInvalidAnnotationFailsTheDeploymentNamingTheOptionAndTheValue(
      Class<?> handler, String message) {
    assertThatThrownBy(() -> describe(handler))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void theDeploymentProblemNamesTheHandlerClass() {
    assertThat(TaskgateExtension.problem(NoBurst.class, "@RateLimit: burst"))
        .isEqualTo("Taskgate handler " + NoBurst.class.getName() + ": @RateLimit: burst");
  }

  @Test
  void aHandlerOverridingThePolicyMethodIsResolvedAfterValidationAndTheMethodWins() {
    HandlerInfo described = describe(PolicyMethodHandler.class);
    assertThat(described.gate()).isEmpty();
    assertThat(TaskgateExtension.overridesPolicy(PolicyMethodHandler.class)).isTrue();
    assertThat(TaskgateExtension.overridesPolicy(SyncHandler.class)).isFalse();

    GateSpec gate =
        TaskgateExtension.withPolicyMethod(described, PolicyMethodHandler::new)
            .gate()
            .orElseThrow();

    assertThat(gate.policy()).isEqualTo(FIFTEEN_PER_MINUTE.withBurst(3));
    assertThat(gate.policySource()).isEqualTo(PolicySource.HANDLER_METHOD);
    assertThat(gate.keySource()).isEqualTo(KeySource.TASK);
  }

  @Test
  void aPolicyMethodReturningNullLeavesTheAnnotationsPolicy() {
    PolicyMethodHandler instance = new PolicyMethodHandler();
    instance.policy = null;

    GateSpec gate =
        TaskgateExtension.withPolicyMethod(describe(PolicyMethodHandler.class), () -> instance)
            .gate()
            .orElseThrow();

    assertThat(gate.policy()).isEqualTo(FIFTEEN_PER_MINUTE);
    assertThat(gate.policySource()).isEqualTo(PolicySource.ANNOTATION);
  }

  @Test
  void aPolicyMethodNeedsNoAnnotation() {
    HandlerInfo resolved =
        TaskgateExtension.withPolicyMethod(
            describe(PolicyMethodOnlyHandler.class), PolicyMethodOnlyHandler::new);

    assertThat(resolved.gate().orElseThrow().policy()).isEqualTo(FIFTEEN_PER_MINUTE);
    assertThat(resolved.gate().orElseThrow().keySource()).isEqualTo(KeySource.HANDLER);
    assertThat(resolved.queue()).isEqualTo("default");
  }

  @Test
  void aPolicyMethodThatThrowsFailsTheDeploymentWithItsReason() {
    assertThatThrownBy(
            () ->
                TaskgateExtension.withPolicyMethod(
                    describe(BadPolicyMethodHandler.class), BadPolicyMethodHandler::new))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "rateLimitPolicy() threw java.lang.IllegalArgumentException: Invalid rate-limit"
                + " policy: burst must be at least 1, was 0");
  }

  @Test
  void aHandlerThatCannotBeCreatedToAskItsPolicyFailsTheDeployment() {
    assertThatThrownBy(
            () ->
                TaskgateExtension.withPolicyMethod(
                    describe(PolicyMethodHandler.class),
                    () -> {
                      throw new IllegalStateException("no datasource yet");
                    }))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "rateLimitPolicy() is overridden, but no instance of the handler could be created at"
                + " deployment to call it: java.lang.IllegalStateException: no datasource yet");
  }

  @Test
  void handlerInfoKeepsItsFiveArgumentConstructorWithoutAGate() {
    HandlerInfo info = describe(SyncHandler.class);

    assertThat(
            new HandlerInfo(
                info.taskType(), info.beanClass(), info.queue(), info.retry(), info.timeout()))
        .isEqualTo(info.withGate(Optional.empty()));
  }

  private static HandlerInfo describe(Class<?> handler) {
    return TaskgateExtension.describe(handler, handler.getAnnotation(TaskHandler.class));
  }
}
