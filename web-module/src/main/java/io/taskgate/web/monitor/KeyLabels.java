package io.taskgate.web.monitor;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.random.RandomGenerator;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The value of the {@code key} tag of the per-key metrics. {@code /metrics} answers anyone who can
 * reach the port, and rate-limit keys are often tenant or customer identifiers, so by default
 * ({@value #HASHED}) a key is published as {@value #PREFIX} and the first {@value #HEX_CHARS} hex
 * digits of its HMAC-SHA-256 under a secret: the same key keeps its label, and the label does not
 * give the key away, not even to someone who can guess candidate keys. The secret is {@value
 * #SECRET_KEY} when set (labels then agree across restarts and instances), otherwise random at each
 * start. {@value #PLAIN} publishes the keys themselves.
 */
final class KeyLabels {
  /** Config key: {@value #HASHED} (default) or {@value #PLAIN}. */
  static final String MODE_KEY = "taskgate.metrics.key-labels";

  /** Config key: the secret the labels are hashed with. */
  static final String SECRET_KEY = "taskgate.metrics.key-label-secret";

  static final String HASHED = "hashed";
  static final String PLAIN = "plain";
  static final String PREFIX = "h:";
  static final int HEX_CHARS = 16;
  private static final String HMAC = "HmacSHA256";

  private final String mode;
  private final SecretKeySpec secret;

  private KeyLabels(String mode, byte[] secret) {
    this.mode = mode;
    this.secret = secret == null ? null : new SecretKeySpec(secret, HMAC);
  }

  /**
   * The labelling the settings ask for.
   *
   * @param mode {@value #MODE_KEY}, if set
   * @param secret {@value #SECRET_KEY}, if set
   * @param random where the secret comes from when none is set
   * @throws IllegalArgumentException for a mode other than {@value #HASHED} or {@value #PLAIN}
   */
  static KeyLabels of(Optional<String> mode, Optional<String> secret, RandomGenerator random) {
    String chosen = mode.map(m -> m.strip().toLowerCase(Locale.ROOT)).orElse(HASHED);
    if (chosen.equals(PLAIN)) {
      return new KeyLabels(PLAIN, null);
    }
    if (!chosen.equals(HASHED)) {
      throw new IllegalArgumentException(
          "Configuration "
              + MODE_KEY
              + " must be "
              + HASHED
              + " or "
              + PLAIN
              + ", was '"
              + mode.orElseThrow()
              + "'");
    }
    byte[] bytes;
    if (secret.isPresent() && !secret.get().isEmpty()) {
      bytes = secret.get().getBytes(StandardCharsets.UTF_8);
    } else {
      bytes = new byte[32];
      random.nextBytes(bytes);
    }
    return new KeyLabels(HASHED, bytes);
  }

  /** {@value #HASHED} or {@value #PLAIN}. */
  String mode() {
    return mode;
  }

  /** The label of {@code key}. */
  String label(String key) {
    if (secret == null) {
      return key;
    }
    try {
      Mac mac = Mac.getInstance(HMAC); // one per call: a Mac is not thread-safe, and calls are few
      mac.init(secret);
      byte[] digest = mac.doFinal(key.getBytes(StandardCharsets.UTF_8));
      return PREFIX + HexFormat.of().formatHex(digest, 0, HEX_CHARS / 2);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(HMAC + " is not available in this JVM", e);
    }
  }
}
