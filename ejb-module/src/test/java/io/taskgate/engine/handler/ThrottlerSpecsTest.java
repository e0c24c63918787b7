package io.taskgate.engine.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.DynamicWindow;
import io.taskgate.api.Handler;
import io.taskgate.api.Mutex;
import io.taskgate.api.Semaphore;
import io.taskgate.api.SlidingWindow;
import io.taskgate.api.Strictness;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.Throttling;
import io.taskgate.api.ThrottlingAction;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ThrottlerSpecsTest {
  record Ship(long orderId, String tenantId) implements Task {}

  @Mutex("ship-{orderId}")
  record MarkedShip(long orderId) implements Task {}

  abstract static class ShipHandler implements Handler<Ship> {
    @Override
    public void handle(Ship task, TaskContext context) {}
  }

  @TaskHandler
  @Mutex("order-{orderId}")
  @Semaphore("Newsletter")
  @DynamicWindow(value = "tenants", window = "tenant-{tenantId}")
  @Throttling(action = ThrottlingAction.DROP, maxWait = "PT5M", strictness = Strictness.STRICT)
  static class Everything extends ShipHandler {}

  @TaskHandler
  static class MarkedHandler implements Handler<MarkedShip> {
    @Override
    public void handle(MarkedShip task, TaskContext context) {}
  }

  @TaskHandler
  @Mutex("order-{orderID}")
  static class WrongPlaceholder extends ShipHandler {}

  @TaskHandler
  @Semaphore("news-{tenantId}")
  static class TemplatedSemaphore extends ShipHandler {}

  @TaskHandler
  @SlidingWindow("api-{tenantId}")
  static class TemplatedWindow extends ShipHandler {}

  @TaskHandler
  @Throttling(action = ThrottlingAction.DROP)
  static class OptionsAlone extends ShipHandler {}

  @TaskHandler
  @Mutex("order-{orderId}")
  @Throttling(maxWait = "five minutes")
  static class BadMaxWait extends ShipHandler {}

  @TaskHandler
  @Mutex("ship-{orderId}-again")
  static class Twice implements Handler<MarkedShip> {
    @Override
    public void handle(MarkedShip task, TaskContext context) {}
  }

  @TaskHandler
  @Semaphore(
      "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")
  static class LongId extends ShipHandler {}

  private static HandlerInfo describe(Class<?> handler) {
    return TaskgateExtension.describe(handler, handler.getAnnotation(TaskHandler.class));
  }

  @Test
  void theThrottlersAndTheirOptionsAreReadFromTheHandler() {
    ThrottlingSpec spec = describe(Everything.class).throttling().orElseThrow();

    assertThat(spec.throttlers())
        .extracting(ThrottlerSpec::name)
        .containsExactly(
            "mutex:order-{orderId}",
            "semaphore:Newsletter",
            "dynamic-window:tenants/tenant-{tenantId}");
    assertThat(spec.throttlers().get(1).resource().fill(new Ship(1, "a"))).isEqualTo("newsletter");
    assertThat(spec.action()).isEqualTo(ThrottlingAction.DROP);
    assertThat(spec.maxWait()).contains(Duration.ofMinutes(5));
    assertThat(spec.strictness()).isEqualTo(Strictness.STRICT);
    assertThat(spec.holds()).isTrue();
  }

  @Test
  void aThrottlerOnTheTaskRecordCountsAndAHandlerWithoutAnyHasNone() {
    ThrottlingSpec spec = describe(MarkedHandler.class).throttling().orElseThrow();

    assertThat(spec.throttlers())
        .singleElement()
        .satisfies(
            t -> {
              assertThat(t.kind()).isEqualTo(ThrottlerKind.MUTEX);
              assertThat(t.resource().fill(new MarkedShip(7))).isEqualTo("ship-7");
            });
    assertThat(spec.action()).isEqualTo(ThrottlingAction.CONFIGURED);
    assertThat(describe(NoThrottle.class).throttling()).isEqualTo(Optional.empty());
  }

  @TaskHandler
  static class NoThrottle extends ShipHandler {}

  @Test
  void invalidDeclarationsFailTheDeploymentNamingTheAnnotationAndTheValue() {
    assertThatThrownBy(() -> describe(WrongPlaceholder.class))
        .hasMessageContaining("@Mutex 'order-{orderID}'")
        .hasMessageContaining("no component or public no-argument method 'orderID'");
    assertThatThrownBy(() -> describe(TemplatedSemaphore.class))
        .hasMessageContaining("@Semaphore 'news-{tenantId}'")
        .hasMessageContaining("cannot have placeholders");
    assertThatThrownBy(() -> describe(TemplatedWindow.class))
        .hasMessageContaining("@SlidingWindow 'api-{tenantId}'")
        .hasMessageContaining("use @DynamicWindow(window = …)");
    assertThatThrownBy(() -> describe(OptionsAlone.class))
        .hasMessageContaining("@Throttling is declared but no throttler");
    assertThatThrownBy(() -> describe(BadMaxWait.class))
        .hasMessageContaining("@Throttling(maxWait) 'five minutes' is not an ISO-8601 duration");
    assertThatThrownBy(() -> describe(Twice.class))
        .hasMessageContaining("@Mutex is declared on both the handler")
        .hasMessageContaining(MarkedShip.class.getName());
    assertThatThrownBy(() -> describe(LongId.class))
        .hasMessageContaining("101 characters; at most 100");
  }
}
