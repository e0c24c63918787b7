package io.taskgate.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ConfigTextTest {
  static final String KEY = "taskgate.test.count";

  static Function<String, Optional<String>> config(Map<String, String> values) {
    return key -> Optional.ofNullable(values.get(key));
  }

  @Test
  void anAbsentKeyIsEmpty() {
    assertThat(ConfigText.parse(config(Map.of()), KEY, Integer::parseInt, "a number")).isEmpty();
  }

  @Test
  void theTextIsStrippedBeforeItIsParsed() {
    assertThat(ConfigText.parse(config(Map.of(KEY, " 42 ")), KEY, Integer::parseInt, "a number"))
        .contains(42);
  }

  @Test
  void textThatDoesNotParseIsRefusedNamingKeyExpectationAndTextAsGiven() {
    assertThatThrownBy(
            () ->
                ConfigText.parse(config(Map.of(KEY, " lots")), KEY, Integer::parseInt, "a number"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Configuration taskgate.test.count must be a number, was ' lots'")
        .hasCauseInstanceOf(NumberFormatException.class);
  }
}
