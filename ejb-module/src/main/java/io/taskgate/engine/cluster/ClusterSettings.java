package io.taskgate.engine.cluster;

import io.taskgate.engine.config.ConfigText;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.microprofile.config.Config;

/**
 * The settings of the instances sharing a database, from MicroProfile Config, read and checked once
 * when first used (at start: a bad value fails the deployment, naming the key and the value):
 *
 * <ul>
 *   <li>{@value #INSTANCE_ID}: this instance's identity (default: see {@link InstanceIdentity})
 *   <li>{@value #HEARTBEAT_INTERVAL}: how often it writes its heartbeat (default PT10S)
 *   <li>{@value #INSTANCE_TIMEOUT}: how old a peer's last beat may be before the peer counts as
 *       dead, at least twice the heartbeat interval (default PT30S)
 * </ul>
 */
@ApplicationScoped
public class ClusterSettings {
  /** Config key: this instance's identity. */
  public static final String INSTANCE_ID = "taskgate.cluster.instance-id";

  /** Config key: how often the heartbeat is written. */
  public static final String HEARTBEAT_INTERVAL = "taskgate.cluster.heartbeat-interval";

  /** Config key: how old a last beat may be before its instance counts as dead. */
  public static final String INSTANCE_TIMEOUT = "taskgate.cluster.instance-timeout";

  static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofSeconds(10);
  static final Duration DEFAULT_INSTANCE_TIMEOUT = Duration.ofSeconds(30);

  @Inject Config config;

  private Values values;

  /** For CDI. */
  public ClusterSettings() {}

  private ClusterSettings(Values values) {
    this.values = values;
  }

  /** Settings with these values, for code and tests outside the container. */
  public static ClusterSettings of(Values values) {
    return new ClusterSettings(values);
  }

  @PostConstruct
  void load() {
    values = Values.read(key -> config.getOptionalValue(key, String.class), hostName());
  }

  /** This instance's identity. */
  public String instanceId() {
    return values.instanceId();
  }

  /** The host this instance runs on, as it is shown. */
  public String host() {
    return values.host();
  }

  /** How often the heartbeat is written. */
  public Duration heartbeatInterval() {
    return values.heartbeatInterval();
  }

  /** How old a last beat may be before its instance counts as dead. */
  public Duration instanceTimeout() {
    return values.instanceTimeout();
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }

  /**
   * The settings' values.
   *
   * @param instanceId this instance's identity
   * @param host the host it runs on
   * @param heartbeatInterval how often the heartbeat is written, more than zero
   * @param instanceTimeout when a peer counts as dead, at least twice {@code heartbeatInterval}
   */
  public record Values(
      String instanceId, String host, Duration heartbeatInterval, Duration instanceTimeout) {

    /** Checks the bounds. */
    public Values {
      if (heartbeatInterval.isNegative() || heartbeatInterval.isZero()) {
        throw new IllegalArgumentException(
            "Configuration "
                + HEARTBEAT_INTERVAL
                + " must be a duration more than zero, was "
                + heartbeatInterval);
      }
      if (instanceTimeout.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
        throw new IllegalArgumentException(
            "Configuration "
                + INSTANCE_TIMEOUT
                + " must be at least twice "
                + HEARTBEAT_INTERVAL
                + " ("
                + heartbeatInterval
                + "), so that one late beat does not make a live instance look dead; was "
                + instanceTimeout);
      }
    }

    /**
     * The values {@code config} gives (a lookup of raw text by key), defaults for the keys it
     * lacks.
     */
    public static Values read(Function<String, Optional<String>> config, String host) {
      return new Values(
          InstanceIdentity.of(config.apply(INSTANCE_ID), host),
          host,
          duration(config, HEARTBEAT_INTERVAL, DEFAULT_HEARTBEAT_INTERVAL),
          duration(config, INSTANCE_TIMEOUT, DEFAULT_INSTANCE_TIMEOUT));
    }
  }

  private static Duration duration(
      Function<String, Optional<String>> config, String key, Duration fallback) {
    return ConfigText.parse(config, key, Duration::parse, "an ISO-8601 duration").orElse(fallback);
  }
}
