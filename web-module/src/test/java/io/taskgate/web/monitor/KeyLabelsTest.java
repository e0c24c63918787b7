package io.taskgate.web.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KeyLabelsTest {
  private static final String TENANT = "3f1c2a7e-0000-4000-8000-000000000001";

  private static KeyLabels labels(String mode, String secret, long seed) {
    return KeyLabels.of(Optional.ofNullable(mode), Optional.ofNullable(secret), new Random(seed));
  }

  @Test
  void byDefaultAKeyIsPublishedAsAShortHashThatDoesNotContainIt() {
    KeyLabels labels = labels(null, null, 1);

    String label = labels.label(TENANT);

    assertThat(labels.mode()).isEqualTo("hashed");
    assertThat(label).matches("h:[0-9a-f]{16}").doesNotContain("3f1c2a7e");
    assertThat(labels.label(TENANT)).as("the same key keeps its label").isEqualTo(label);
    assertThat(labels.label(TENANT + "x")).isNotEqualTo(label);
  }

  @Test
  void theLabelIsTheHmacSha256OfTheKeyUnderTheConfiguredSecret() {
    // RFC 4231, test case 2: HMAC-SHA-256("Jefe", "what do ya want for nothing?") =
    // 5bdcc146bf60754e…
    assertThat(labels("hashed", "Jefe", 1).label("what do ya want for nothing?"))
        .isEqualTo("h:5bdcc146bf60754e");
  }

  @Test
  void aConfiguredSecretGivesTheSameLabelsAtEveryStartAnotherSecretOthers() {
    String label = labels(null, "s3cret", 1).label(TENANT);

    assertThat(labels(null, "s3cret", 2).label(TENANT)).isEqualTo(label);
    assertThat(labels(null, "other", 1).label(TENANT)).isNotEqualTo(label);
  }

  @Test
  void withoutASecretEachStartHashesWithARandomOne() {
    assertThat(labels(null, null, 1).label(TENANT))
        .isNotEqualTo(labels(null, null, 2).label(TENANT));
    assertThat(labels(null, "", 1).label(TENANT))
        .as("an empty secret counts as none")
        .isEqualTo(labels(null, null, 1).label(TENANT));
  }

  @ParameterizedTest
  @ValueSource(strings = {"plain", "PLAIN", " plain "})
  void plainPublishesTheKeyItself(String mode) {
    KeyLabels labels = labels(mode, "s3cret", 1);

    assertThat(labels.mode()).isEqualTo("plain");
    assertThat(labels.label(TENANT)).isEqualTo(TENANT);
    assertThat(labels.label("a/b \"c\"")).isEqualTo("a/b \"c\"");
  }

  @ParameterizedTest
  @ValueSource(strings = {"hash", "none", "", "true"})
  void anyOtherModeIsRefusedNamingTheOptionAndTheValue(String mode) {
    assertThatThrownBy(() -> labels(mode, null, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Configuration taskgate.metrics.key-labels must be hashed or plain, was '"
                + mode
                + "'");
  }

  @Test
  void keysOfAnyLengthGetLabelsOfOneLength() {
    KeyLabels labels = labels(null, "s3cret", 1);

    assertThat(labels.label("")).hasSize(18);
    assertThat(labels.label("k".repeat(10_000))).hasSize(18);
  }
}
