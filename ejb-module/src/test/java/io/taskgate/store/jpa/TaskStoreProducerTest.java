package io.taskgate.store.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.core.task.AuditLevel;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TaskStoreProducerTest {

  @ParameterizedTest
  @CsvSource({"FULL, FULL", "minimal, MINIMAL", "' None ', NONE"})
  void theAuditLevelIsReadInAnyCase(String text, AuditLevel level) {
    assertThat(TaskStoreProducer.parseAuditLevel(text)).isEqualTo(level);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "ALL", "FULLY"})
  void anUnknownAuditLevelNamesTheKeyAndTheChoices(String text) {
    assertThatThrownBy(() -> TaskStoreProducer.parseAuditLevel(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Configuration taskgate.audit.level must be one of [FULL, MINIMAL, NONE], was '"
                + text
                + "'");
  }

  @ParameterizedTest
  @CsvSource({"taskgate.store.writers, -1, 0", "taskgate.store.batch-size, 0, 1"})
  void storeSettingsBelowTheirMinimumNameTheKey(String key, int value, int min) {
    assertThatThrownBy(() -> TaskStoreProducer.checkAtLeast(key, value, min))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Configuration " + key + " must be at least " + min + ", was " + value);
  }
}
