package io.taskgate.engine.cluster.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GridSettingsTest {

  static GridSettings read(Map<String, String> values) {
    return GridSettings.read(key -> Optional.ofNullable(values.get(key)));
  }

  @Test
  void theBudgetsAreLocalByDefault() {
    GridSettings settings = read(Map.of());
    assertThat(settings.grid()).isFalse();
    assertThat(settings.gridTimeout()).isEqualTo(Duration.ofMillis(50));
  }

  @Test
  void gridAndATimeoutAreRead() {
    GridSettings settings =
        read(Map.of(GridSettings.LIMITER, " Grid ", GridSettings.GRID_TIMEOUT, "PT0.2S"));
    assertThat(settings.grid()).isTrue();
    assertThat(settings.gridTimeout()).isEqualTo(Duration.ofMillis(200));
  }

  @Test
  void badValuesAreRefusedNamingTheKeyAndTheValue() {
    assertThatThrownBy(() -> read(Map.of(GridSettings.LIMITER, "redis")))
        .hasMessage("Configuration taskgate.rate-limit.limiter must be local or grid, was 'redis'");
    assertThatThrownBy(() -> read(Map.of(GridSettings.GRID_TIMEOUT, "50ms")))
        .hasMessageContaining("taskgate.rate-limit.grid-timeout")
        .hasMessageContaining("'50ms'");
    assertThatThrownBy(() -> read(Map.of(GridSettings.GRID_TIMEOUT, "PT10S")))
        .hasMessage(
            "Configuration taskgate.rate-limit.grid-timeout must be a duration from PT0.001S to"
                + " PT5S, was PT10S");
  }
}
