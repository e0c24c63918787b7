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
        .isEqualTo("order-42/acme corp");
    assertThat(template.isDynamic()).isTrue();
    assertThat(ResourceTemplate.parse("Newsletter", Ship.class).fill(new Ship(1, null, "b")))
        .isEqualTo("newsletter");
  }

  /** Seed 001: ids are case-insensitive, with no other rule than their length. */
  @Test
  void idsThatDifferInMoreThanCaseStayDistinct() {
    ResourceTemplate template = ResourceTemplate.parse("order-{batchId}", Ship.class);
    java.util.List<String> ids =
        java.util.stream.Stream.of("a/1", "a_1", "a 1", "a:1", "café", "caf_", "caf%C3%A9", "ü")
            .map(batch -> template.fill(new Ship(1, null, batch)))
            .toList();

    assertThat(ids).doesNotHaveDuplicates();
    assertThat(ids).contains("order-a/1", "order-café", "order-ü");
    assertThat(template.fill(new Ship(1, null, "CAFÉ"))).isEqualTo("order-café");
    assertThatThrownBy(() -> template.fill(new Ship(1, null, "a\nforged log line")))
        .hasMessageContaining("control character U+000A at position 7");
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
