package io.taskgate.engine.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.engine.budget.GateSettings.Values;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GateSettingsTest {

  static Values read(Map<String, String> config, int defaultQueueCapacity) {
    return Values.read(key -> Optional.ofNullable(config.get(key)), defaultQueueCapacity);
  }

  @Test
  void theDefaults() {
    assertThat(read(Map.of(), 1000))
        .isEqualTo(new Values(2000, 100_000, 256, true, Duration.ofMillis(100)));
  }

  @ParameterizedTest
  @CsvSource({"1, 2", "1000, 2000", "2500, 5000", "3000, 5000", "2147483647, 5000"})
  void parkedTasksDefaultToTheSmallerOf5000AndTwiceTheDefaultQueue(int capacity, int parked) {
    assertThat(read(Map.of(), capacity).maxParkedTasks()).isEqualTo(parked);
  }

  @Test
  void everyKeyIsRead() {
    assertThat(
            read(
                Map.of(
                    "taskgate.rate-limit.max-parked-tasks", "10",
                    "taskgate.rate-limit.max-tracked-keys", " 20 ",
                    "taskgate.rate-limit.max-key-length", "30",
                    "taskgate.rate-limit.emit-deferral-events", "FALSE",
                    "taskgate.rate-limit.claim-ahead", " PT0.25S "),
                1000))
        .isEqualTo(new Values(10, 20, 30, false, Duration.ofMillis(250)));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "taskgate.rate-limit.max-parked-tasks | 0 | Configuration taskgate.rate-limit.max-parked-tasks must be at least 1, was 0",
        "taskgate.rate-limit.max-tracked-keys | -5 | Configuration taskgate.rate-limit.max-tracked-keys must be at least 1, was -5",
        "taskgate.rate-limit.max-key-length | lots | Configuration taskgate.rate-limit.max-key-length must be a whole number from 1 to 2147483647, was 'lots'",
        "taskgate.rate-limit.max-tracked-keys | 1e5 | Configuration taskgate.rate-limit.max-tracked-keys must be a whole number from 1 to 2147483647, was '1e5'",
        "taskgate.rate-limit.max-parked-tasks | 9999999999 | Configuration taskgate.rate-limit.max-parked-tasks must be a whole number from 1 to 2147483647, was '9999999999'",
        "taskgate.rate-limit.emit-deferral-events | yes | Configuration taskgate.rate-limit.emit-deferral-events must be true or false, was 'yes'",
        "taskgate.rate-limit.claim-ahead | 100ms | Configuration taskgate.rate-limit.claim-ahead must be an ISO-8601 duration from PT0S to PT5S, was '100ms'",
        "taskgate.rate-limit.claim-ahead | -PT0.1S | Configuration taskgate.rate-limit.claim-ahead must be a duration from PT0S to PT5S, was PT-0.1S",
        "taskgate.rate-limit.claim-ahead | PT6S | Configuration taskgate.rate-limit.claim-ahead must be a duration from PT0S to PT5S, was PT6S",
      })
  void anInvalidValueIsRefusedNamingTheKeyAndTheValue(String key, String value, String message) {
    assertThatThrownBy(() -> read(Map.of(key, value), 1000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void settingsBuiltFromValuesAnswerThem() {
    GateSettings settings = GateSettings.of(new Values(1, 2, 3, false));

    assertThat(settings.maxParkedTasks()).isEqualTo(1);
    assertThat(settings.maxTrackedKeys()).isEqualTo(2);
    assertThat(settings.maxKeyLength()).isEqualTo(3);
    assertThat(settings.emitDeferralEvents()).isFalse();
    assertThat(settings.claimAhead()).isEqualTo(Duration.ofMillis(100));
    assertThat(GateSettings.of(new Values(1, 2, 3, false, Duration.ZERO)).claimAhead()).isZero();
  }
}
