package io.taskgate.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClusterSettingsTest {

  static ClusterSettings.Values read(Map<String, String> config) {
    return ClusterSettings.Values.read(k -> Optional.ofNullable(config.get(k)), "box");
  }

  @Test
  void theDefaultsBeatEveryTenSecondsAndCallAPeerDeadAfterThirty() {
    ClusterSettings.Values values = read(Map.of());

    assertThat(values.heartbeatInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(values.instanceTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(values.instanceId()).isEqualTo("box");
    assertThat(values.host()).isEqualTo("box");
  }

  @Test
  void configuredValuesAreTaken() {
    ClusterSettings.Values values =
        read(
            Map.of(
                ClusterSettings.INSTANCE_ID, "node-2",
                ClusterSettings.HEARTBEAT_INTERVAL, "PT1S",
                ClusterSettings.INSTANCE_TIMEOUT, "PT3S"));

    assertThat(values)
        .isEqualTo(
            new ClusterSettings.Values(
                "node-2", "box", Duration.ofSeconds(1), Duration.ofSeconds(3)));
  }

  @Test
  void aTimeoutShorterThanTwoBeatsIsRefusedNamingBothSettings() {
    assertThatThrownBy(
            () ->
                read(
                    Map.of(
                        ClusterSettings.HEARTBEAT_INTERVAL, "PT10S",
                        ClusterSettings.INSTANCE_TIMEOUT, "PT15S")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Configuration taskgate.cluster.instance-timeout must be at least twice"
                + " taskgate.cluster.heartbeat-interval (PT10S), so that one late beat does not make"
                + " a live instance look dead; was PT15S");
  }

  @Test
  void aValueThatIsNotADurationIsRefusedNamingTheKeyAndTheValue() {
    assertThatThrownBy(() -> read(Map.of(ClusterSettings.HEARTBEAT_INTERVAL, "10s")))
        .hasMessage(
            "Configuration taskgate.cluster.heartbeat-interval must be an ISO-8601 duration, was"
                + " '10s'");
    assertThatThrownBy(() -> read(Map.of(ClusterSettings.HEARTBEAT_INTERVAL, "PT0S")))
        .hasMessage(
            "Configuration taskgate.cluster.heartbeat-interval must be a duration more than zero,"
                + " was PT0S");
  }
}
