package io.taskgate.web.monitor;

import io.taskgate.engine.admin.ThrottlerAdmin;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;
import org.eclipse.microprofile.metrics.Tag;

/**
 * The job throttlers' MicroProfile Metrics, per throttle ({@code throttle="semaphore:newsletter"},
 * {@code throttle="mutex:order-{orderId}"}): gauges {@value #ACQUIRED}, {@value #WAITED} and
 * {@value #DROPPED} (counts since this instance started) and the timer {@value #WAIT} (how long a
 * task waited, from the throttle's first "not now" to its run).
 */
@ApplicationScoped
public class ThrottlerMetrics {
  static final String ACQUIRED = "taskgate.throttler.acquired";
  static final String WAITED = "taskgate.throttler.waited";
  static final String DROPPED = "taskgate.throttler.dropped";
  static final String WAIT = "taskgate.throttler.wait";

  @Inject MetricRegistry registry;
  @Inject ThrottlerAdmin throttlers;

  void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
    for (String name : throttlers.throttleNames()) {
      Tag throttle = new Tag("throttle", name);
      registry.gauge(
          MetricMetadata.of(ACQUIRED, "Attempts the throttle let run", MetricUnits.NONE),
          () -> throttlers.counts(name)[0],
          throttle);
      registry.gauge(
          MetricMetadata.of(WAITED, "Times the throttle made a task wait", MetricUnits.NONE),
          () -> throttlers.counts(name)[1],
          throttle);
      registry.gauge(
          MetricMetadata.of(
              DROPPED, "Tasks the throttle dropped (action DROP or max wait)", MetricUnits.NONE),
          () -> throttlers.counts(name)[2],
          throttle);
    }
    throttlers.onWaited(this::waited);
  }

  private void waited(String throttle, Duration waited) {
    registry
        .timer(
            MetricMetadata.of(
                WAIT, "How long tasks waited for the throttle", MetricUnits.NANOSECONDS),
            new Tag("throttle", throttle))
        .update(waited);
  }
}
