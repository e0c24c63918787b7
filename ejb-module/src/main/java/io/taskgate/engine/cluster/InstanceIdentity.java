package io.taskgate.engine.cluster;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;

/**
 * How an instance names itself among those sharing the database: the configured {@value
 * ClusterSettings#INSTANCE_ID} if there is one; otherwise its host and a short hash of the server's
 * instance directory, so that a restart of the same server keeps its name (and recovers its own
 * interrupted tasks at once) while two servers on one host never share one.
 */
public final class InstanceIdentity {
  /** The longest identity the database keeps. */
  public static final int MAX_LENGTH = 64;

  private InstanceIdentity() {}

  /**
   * The identity: {@code configured} if present (checked), else {@code host-<8 hex digits of the
   * SHA-256 of instanceRoot>}, the host cut to fit.
   *
   * @throws IllegalArgumentException naming the setting, for a configured identity that is blank,
   *     too long or not made of letters, digits, '.', '_' and '-'
   */
  public static String of(Optional<String> configured, String host, String instanceRoot) {
    if (configured.isPresent()) {
      return checked(configured.get().strip());
    }
    String hash = HexFormat.of().formatHex(sha256(instanceRoot)).substring(0, 8);
    String cleanHost = host.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]", "-");
    int room = MAX_LENGTH - hash.length() - 1;
    if (cleanHost.isEmpty()) {
      cleanHost = "instance";
    }
    return (cleanHost.length() > room ? cleanHost.substring(0, room) : cleanHost) + "-" + hash;
  }

  private static String checked(String id) {
    if (id.isEmpty() || id.length() > MAX_LENGTH || !id.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException(
          "Configuration "
              + ClusterSettings.INSTANCE_ID
              + " must be 1 to "
              + MAX_LENGTH
              + " letters, digits, '.', '_' or '-', was '"
              + id
              + "'");
    }
    return id;
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }
}
