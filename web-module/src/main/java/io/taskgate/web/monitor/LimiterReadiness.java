package io.taskgate.web.monitor;

import io.taskgate.engine.admin.ClusterViews;
import io.taskgate.engine.admin.dto.ClusterView;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness of the rate limiter: always up (while the grid does not answer the instance decides
 * locally at its share of each key's rate, and tasks keep running), with where the budgets live
 * ({@code mode}), this instance's identity, and in grid mode whether it is {@code degraded} now,
 * since when, how often it was, its share, and the live instances sharing the database but not the
 * grid ({@code outsideGrid}, while there are any).
 */
@Readiness
@ApplicationScoped
public class LimiterReadiness implements HealthCheck {
  static final String NAME = "taskgate-rate-limiter";

  @Inject ClusterViews cluster;

  @Override
  public HealthCheckResponse call() {
    ClusterView.Limiter limiter = cluster.limiter();
    HealthCheckResponseBuilder response =
        HealthCheckResponse.named(NAME)
            .up()
            .withData("instance", cluster.self())
            .withData("mode", limiter.mode());
    if (limiter.gridTimeout() != null) {
      response
          .withData("degraded", limiter.degraded())
          .withData("degradations", limiter.degradations())
          .withData("localDecisions", limiter.localDecisions())
          .withData("share", limiter.share());
      if (!limiter.outsideGrid().isEmpty()) {
        response.withData("outsideGrid", String.join(",", limiter.outsideGrid()));
      }
      if (limiter.degradedSince() != null) {
        response.withData("degradedSince", limiter.degradedSince().toString());
      }
    }
    return response.build();
  }
}
