package io.taskgate.engine.cluster.grid;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * The data grid as the rate limiter uses it: its settings ({@link GridSettings}, read and checked
 * once from MicroProfile Config) and, when the budgets live in the grid, the limiter, which its
 * host registers at start so that the views can report on it.
 */
@ApplicationScoped
public class GridState {
  @Inject Config config;

  private GridSettings settings;
  private volatile GridKeyedRateLimiter limiter;

  /** For CDI. */
  public GridState() {}

  private GridState(GridSettings settings) {
    this.settings = settings;
  }

  /** A state with these settings, for code and tests outside the container. */
  public static GridState of(GridSettings settings) {
    return new GridState(settings);
  }

  @PostConstruct
  void load() {
    settings = GridSettings.read(key -> config.getOptionalValue(key, String.class));
  }

  /** The settings. */
  public GridSettings settings() {
    return settings;
  }

  /** Registers the grid limiter in use. */
  public void use(GridKeyedRateLimiter limiter) {
    this.limiter = limiter;
  }

  /** The grid's status; empty when the budgets are local. */
  public Optional<GridStatus> status() {
    GridKeyedRateLimiter current = limiter;
    return current == null ? Optional.empty() : Optional.of(current.status());
  }
}
