package io.taskgate.web.monitor;

import io.taskgate.engine.QueueSettings;
import io.taskgate.engine.TaskEngine;
import io.taskgate.engine.TaskQueues;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness of the consumers: the engine has recovered and started its queues, and its sweep of the
 * store has run within three intervals (a stalled sweep means due tasks are not picked up). Reports
 * each queue's depth, capacity and busy workers.
 */
@Readiness
@ApplicationScoped
public class ConsumersReadiness implements HealthCheck {
  static final String NAME = "taskgate-consumers";

  @Inject TaskEngine engine;
  @Inject TaskQueues queues;
  @Inject QueueSettings settings;
  @Inject InstantSource clock;

  @Override
  public HealthCheckResponse call() {
    HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME);
    Instant now = clock.instant();
    Instant started = engine.started().orElse(null);
    boolean up = started != null;
    response.withData("started", String.valueOf(started));
    if (up) {
      Duration allowed = engine.sweepEvery().multipliedBy(3);
      Instant lastSweep = engine.lastSweep().orElse(started);
      up = Duration.between(lastSweep, now).compareTo(allowed.plusSeconds(1)) <= 0;
      response.withData("lastSweep", String.valueOf(engine.lastSweep().orElse(null)));
    }
    Map<String, Integer> depths = queues.depths();
    Map<String, Integer> workers = queues.workers();
    settings
        .queues()
        .forEach(
            (name, sizes) ->
                response.withData(
                    "queue." + name,
                    depths.getOrDefault(name, 0)
                        + "/"
                        + sizes.capacity()
                        + " waiting, "
                        + workers.getOrDefault(name, 0)
                        + "/"
                        + sizes.parallelism()
                        + " workers"));
    return response.status(up).build();
  }
}
