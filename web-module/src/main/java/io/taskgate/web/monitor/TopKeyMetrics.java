package io.taskgate.web.monitor;

import io.taskgate.engine.admin.EngineMonitor;
import io.taskgate.engine.admin.ThrottleViews;
import io.taskgate.engine.admin.dto.RateLimitPage;
import io.taskgate.engine.admin.dto.RateLimitQuery;
import io.taskgate.engine.admin.dto.RateLimitRow;
import io.taskgate.engine.admin.dto.RateLimitSort;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;
import org.eclipse.microprofile.metrics.Tag;

/**
 * The per-key metrics, in the application registry: for the {@value #TOP_KEYS_KEY} keys with the
 * most parked tasks (default {@value #DEFAULT_TOP_KEYS}; 0: none; a key with none parked has none),
 * refreshed every {@value #TOP_KEYS_REFRESH_KEY} (default {@value #DEFAULT_REFRESH}), gauges
 * {@value #KEY_PARKED}, {@value #KEY_WAIT} (seconds until the key's next free slot) and {@value
 * #KEY_DRAIN} (seconds until its last parked task's slot), tagged with the type and the key's label
 * ({@link KeyLabels}: a keyed hash of the key unless {@value KeyLabels#MODE_KEY} is {@code plain}).
 * Keys that leave the top are removed, so the number of series stays bounded; {@link
 * #publishedKeys} says which key each label stands for.
 */
@ApplicationScoped
public class TopKeyMetrics {
  private static final Logger LOG = Logger.getLogger(TopKeyMetrics.class.getName());

  static final String KEY_PARKED = "taskgate.rate_limit.key.parked_tasks";
  static final String KEY_WAIT = "taskgate.rate_limit.key.wait";
  static final String KEY_DRAIN = "taskgate.rate_limit.key.drain";

  /** Config key: the number of keys with metrics of their own. */
  public static final String TOP_KEYS_KEY = "taskgate.metrics.top-keys";

  /** Config key: how often the per-key metrics are refreshed (ISO-8601 duration). */
  public static final String TOP_KEYS_REFRESH_KEY = "taskgate.metrics.top-keys-refresh";

  static final int DEFAULT_TOP_KEYS = 10;
  static final int MAX_TOP_KEYS = 100;
  static final String DEFAULT_REFRESH = "PT10S";

  @Inject MetricRegistry registry;
  @Inject Config config;
  @Inject ThrottleViews views;
  @Inject InstantSource clock;

  @Inject EngineMonitor engine;

  private SettableGauges gauges;
  private ScheduledFuture<?> refresher;
  private int topKeys;
  private KeyLabels labels;
  private volatile List<KeyLabel> published = List.of();

  void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
    gauges = new SettableGauges(registry);
    topKeys = config.getOptionalValue(TOP_KEYS_KEY, Integer.class).orElse(DEFAULT_TOP_KEYS);
    if (topKeys < 0 || topKeys > MAX_TOP_KEYS) {
      throw new IllegalArgumentException(
          "Configuration "
              + TOP_KEYS_KEY
              + " must be from 0 to "
              + MAX_TOP_KEYS
              + ", was "
              + topKeys);
    }
    labels =
        KeyLabels.of(
            config.getOptionalValue(KeyLabels.MODE_KEY, String.class),
            config.getOptionalValue(KeyLabels.SECRET_KEY, String.class),
            new SecureRandom());
    Duration refresh =
        Duration.parse(
            config.getOptionalValue(TOP_KEYS_REFRESH_KEY, String.class).orElse(DEFAULT_REFRESH));
    if (refresh.isNegative() || refresh.isZero()) {
      throw new IllegalArgumentException(
          "Configuration " + TOP_KEYS_REFRESH_KEY + " must be a positive duration, was " + refresh);
    }
    if (topKeys > 0) {
      refresher =
          engine.every("top-key metrics refresh", Duration.ZERO, refresh, this::refreshTopKeys);
    }
  }

  @PreDestroy
  void stop() {
    if (refresher != null) {
      refresher.cancel(false);
    }
  }

  /** Re-registers the per-key gauges for the keys with the most parked tasks now. */
  void refreshTopKeys() {
    try {
      RateLimitPage top =
          views.rateLimits(
              new RateLimitQuery(
                  Optional.empty(),
                  Optional.empty(),
                  true,
                  RateLimitSort.PARKED,
                  true,
                  0,
                  topKeys));
      Instant now = clock.instant();
      Set<MetricID> current = new HashSet<>();
      List<KeyLabel> shown = new ArrayList<>();
      for (RateLimitRow row : top.items()) {
        if (row.parkedCount() == 0) {
          continue; // throttled with nothing parked: not one of the keys with parked tasks
        }
        String label = labels.label(row.key());
        shown.add(new KeyLabel(row.taskType(), row.key(), label));
        Tag[] tags = {new Tag("type", row.taskType()), new Tag("key", label)};
        long wait =
            row.nextSlot() == null
                ? 0
                : Math.max(0, Duration.between(now, row.nextSlot()).toSeconds());
        current.add(
            gauges.set(
                KEY_PARKED,
                "Parked tasks of one of the top keys",
                MetricUnits.NONE,
                row.parkedCount(),
                tags));
        long drain =
            row.parkedUntil() == null
                ? 0
                : Math.max(0, Duration.between(now, row.parkedUntil()).toSeconds());
        current.add(
            gauges.set(
                KEY_DRAIN,
                "Until the last parked task of one of the top keys reaches its slot",
                MetricUnits.SECONDS,
                drain,
                tags));
        current.add(
            gauges.set(
                KEY_WAIT,
                "Until the next free slot of one of the top keys",
                MetricUnits.SECONDS,
                wait,
                tags));
      }
      gauges.retainOnly(current);
      published = List.copyOf(shown);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Taskgate could not refresh its per-key metrics; retried", e);
    }
  }

  /** The keys that have per-key metrics now, each with its {@code key} label, most parked first. */
  public List<KeyLabel> publishedKeys() {
    return published;
  }

  /** How keys are labelled: {@code hashed} or {@code plain} ({@value KeyLabels#MODE_KEY}). */
  public String keyLabelMode() {
    return labels.mode();
  }
}
