package io.taskgate.engine.cluster;

import java.util.Locale;
import java.util.Optional;

/**
 * How an instance names itself among those sharing the database: the configured {@value
 * ClusterSettings#INSTANCE_ID} if there is one, otherwise its host name. A restart keeps the name,
 * so the restarted instance takes back its own interrupted and queued tasks at once; instances
 * sharing a host need a configured identity each ({@link Instances} logs it when two write one
 * heartbeat).
 */
public final class InstanceIdentity {
  /** The longest identity the database keeps. */
  public static final int MAX_LENGTH = 64;

  private InstanceIdentity() {}

  /**
   * The identity: {@code configured} if present (checked), else {@code host} in lower case, with
   * characters other than letters, digits, '.', '_' and '-' replaced by '-', cut to {@value
   * #MAX_LENGTH}.
   *
   * @throws IllegalArgumentException naming the setting, for a configured identity that is blank,
   *     too long or not made of letters, digits, '.', '_' and '-'
   */
  public static String of(Optional<String> configured, String host) {
    if (configured.isPresent()) {
      return checked(configured.get().strip());
    }
    String clean = host.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]", "-");
    if (clean.isEmpty()) {
      return "localhost";
    }
    return clean.length() > MAX_LENGTH ? clean.substring(0, MAX_LENGTH) : clean;
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
}
