package io.taskgate.web.monitor;

import io.taskgate.engine.admin.EngineMonitor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Readiness of the task store: one lookup by primary key answers (the database is reachable). */
@Readiness
@ApplicationScoped
public class StoreReadiness implements HealthCheck {
  static final String NAME = "taskgate-store";

  @Inject EngineMonitor engine;

  @Override
  public HealthCheckResponse call() {
    try {
      return HealthCheckResponse.named(NAME)
          .up()
          .withData("lookupMillis", engine.checkStore().toMillis())
          .build();
    } catch (RuntimeException e) {
      return HealthCheckResponse.named(NAME)
          .down()
          .withData("error", e.getClass().getSimpleName())
          .build();
    }
  }
}
