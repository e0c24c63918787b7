package io.taskgate.web.monitor;

import io.taskgate.engine.admin.EngineMonitor;
import io.taskgate.engine.admin.dto.EngineStatus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
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

  @Inject EngineMonitor engine;
  @Inject InstantSource clock;

  @Override
  public HealthCheckResponse call() {
    HealthCheckResponseBuilder response = HealthCheckResponse.named(NAME);
    Instant now = clock.instant();
    EngineStatus status = engine.status();
    Instant started = status.started();
    boolean up = started != null;
    response.withData("started", String.valueOf(started));
    if (up) {
      Duration allowed = status.sweepInterval().multipliedBy(3);
      Instant lastSweep = status.lastSweep() == null ? started : status.lastSweep();
      up = Duration.between(lastSweep, now).compareTo(allowed.plusSeconds(1)) <= 0;
      response.withData("lastSweep", String.valueOf(status.lastSweep()));
    }
    for (EngineStatus.QueueStatus queue : status.queues()) {
      response.withData(
          "queue." + queue.name(),
          queue.waiting()
              + "/"
              + queue.capacity()
              + " waiting, "
              + queue.workers()
              + "/"
              + queue.parallelism()
              + " workers");
    }
    return response.status(up).build();
  }
}
