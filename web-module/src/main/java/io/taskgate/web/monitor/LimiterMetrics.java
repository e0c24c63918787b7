package io.taskgate.web.monitor;

import io.taskgate.api.LimiterStats;
import io.taskgate.engine.admin.LimiterAdmin;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.function.ToDoubleFunction;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;
import org.eclipse.microprofile.metrics.Tag;

/**
 * The MicroProfile Metrics of the limiters of {@code @RateLimited} methods and {@code @Limiter}
 * injection points, per limiter ({@code limiter="partner-api"}), counts since this instance
 * started: gauges {@value #GRANTED}, {@value #REJECTED}, {@value #WAITED}, {@value #FAILED_OPEN},
 * {@value #QUEUED} (waiting now) and {@value #WAIT_TIME} (seconds the waiting calls waited, in
 * all).
 */
@ApplicationScoped
public class LimiterMetrics {
  static final String GRANTED = "taskgate.limiter.granted";
  static final String REJECTED = "taskgate.limiter.rejected";
  static final String WAITED = "taskgate.limiter.waited";
  static final String FAILED_OPEN = "taskgate.limiter.failed.open";
  static final String QUEUED = "taskgate.limiter.queued";
  static final String WAIT_TIME = "taskgate.limiter.wait.time";

  @Inject MetricRegistry registry;
  @Inject LimiterAdmin limiters;

  void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
    for (LimiterStats limiter : limiters.list()) {
      String name = limiter.name();
      Tag tag = new Tag("limiter", name);
      gauge(
          GRANTED, "Calls the limiter let through", MetricUnits.NONE, name, tag, s -> s.granted());
      gauge(REJECTED, "Calls the limiter refused", MetricUnits.NONE, name, tag, s -> s.rejected());
      gauge(
          WAITED,
          "Calls that waited for their permit and got it",
          MetricUnits.NONE,
          name,
          tag,
          s -> s.waited());
      gauge(
          FAILED_OPEN,
          "Calls let through untracked because the limiter's key table was full",
          MetricUnits.NONE,
          name,
          tag,
          s -> s.failedOpen());
      gauge(QUEUED, "Calls waiting now", MetricUnits.NONE, name, tag, s -> s.queued());
      gauge(
          WAIT_TIME,
          "How long the calls that waited waited, in all",
          MetricUnits.SECONDS,
          name,
          tag,
          s -> s.waitTime().toNanos() / 1e9);
    }
  }

  private void gauge(
      String metric,
      String description,
      String unit,
      String limiter,
      Tag tag,
      ToDoubleFunction<LimiterStats> value) {
    registry.gauge(
        MetricMetadata.of(metric, description, unit),
        () -> limiters.find(limiter).map(value::applyAsDouble).orElse(0.0),
        tag);
  }
}
