package io.taskgate.core.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ResourceTemplateTest {
  record Order(String id, String tenantId) {}

  record Ship(long orderId, Order order, String batchId) {}

  @Test
  void itFillsComponentsAndNestedPaths() {
    ResourceTemplate template =
        ResourceTemplate.parse("order-{orderId}/{order.tenantId}", Ship.class);

    assertThat(template.fill(new Ship(42, new Order("x", "Acme Corp"), "b")))
        .isEqualTo("order-42_acme_corp");
    assertThat(template.isDynamic()).isTrue();
    assertThat(ResourceTemplate.parse("Newsletter", Ship.class).fill(new Ship(1, null, "b")))
        .isEqualTo("newsletter");
  }

  @Test
  void aPlaceholderThatNamesNothingIsRefusedNamingIt() {
    assertThatThrownBy(() -> ResourceTemplate.parse("order-{orderID}", Ship.class))
        .hasMessageContaining("{orderID}")
        .hasMessageContaining("Ship has no component");
    assertThatThrownBy(() -> ResourceTemplate.parse("order-{order.nope}", Ship.class))
        .hasMessageContaining("Order has no component or public no-argument method 'nope'");
    assertThatThrownBy(() -> ResourceTemplate.parse("order-{orderId", Ship.class))
        .hasMessageContaining("not closed");
    assertThatThrownBy(() -> ResourceTemplate.parse("order-{}", Ship.class))
        .hasMessageContaining("empty placeholder");
  }

  @Test
  void anIdLongerThan100CharactersOrANullValueIsRefusedAtFill() {
    ResourceTemplate template = ResourceTemplate.parse("{batchId}", Ship.class);

    assertThat(template.fill(new Ship(1, null, "b".repeat(100)))).hasSize(100);
    assertThatThrownBy(() -> template.fill(new Ship(1, null, "b".repeat(101))))
        .hasMessageContaining("101 characters; at most 100");
    assertThatThrownBy(() -> template.fill(new Ship(1, null, null))).hasMessageContaining("null");
    assertThatThrownBy(
            () -> ResourceTemplate.parse("{order.id}", Ship.class).fill(new Ship(1, null, "b")))
        .hasMessageContaining("null");
  }
}
