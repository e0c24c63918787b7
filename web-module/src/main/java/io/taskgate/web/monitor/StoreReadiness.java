package io.taskgate.web.monitor;

import io.taskgate.store.TaskStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.UUID;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Readiness of the task store: one lookup by primary key answers (the database is reachable). */
@Readiness
@ApplicationScoped
public class StoreReadiness implements HealthCheck {
  static final String NAME = "taskgate-store";

  @Inject TaskStore store;

  @Override
  public HealthCheckResponse call() {
    long start = System.nanoTime();
    try {
      store.find(UUID.randomUUID());
      return HealthCheckResponse.named(NAME)
          .up()
          .withData("lookupMillis", (System.nanoTime() - start) / 1_000_000)
          .build();
    } catch (RuntimeException e) {
      return HealthCheckResponse.named(NAME)
          .down()
          .withData("error", e.getClass().getSimpleName())
          .build();
    }
  }
}
