package io.taskgate.engine.admin;

import io.taskgate.api.LimiterStats;
import io.taskgate.engine.admin.dto.LimiterView;
import io.taskgate.engine.limiter.LimiterChanges;
import io.taskgate.engine.limiter.MethodLimits;
import io.taskgate.engine.limiter.NamedLimiter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The limiters of {@code @RateLimited} methods and {@code @Limiter} injection points for the REST
 * API and the pages: each one's limit and counts, and run-time changes made by a named user.
 */
@ApplicationScoped
public class LimiterAdmin {

  @Inject MethodLimits limits;
  @Inject LimiterChanges changes;

  /** Every limiter, by name. */
  public List<LimiterStats> list() {
    limits.applyChanges(); // show what the next call gets, even on an instance nobody calls
    return limits.limiters().stream().map(NamedLimiter::stats).toList();
  }

  /** The keys listed per limiter on the admin page. */
  static final int TOP_KEYS = 5;

  /** Every limiter with its recent refusals and busiest keys, for the admin page. */
  public List<LimiterView> views() {
    limits.applyChanges();
    return limits.limiters().stream().map(LimiterAdmin::view).toList();
  }

  /** Limiter {@code name} with its recent refusals and busiest keys, if there is one. */
  public Optional<LimiterView> view(String name) {
    limits.applyChanges();
    return limits.find(name).map(LimiterAdmin::view);
  }

  private static LimiterView view(NamedLimiter l) {
    return new LimiterView(
        l.stats(),
        l.spec().cluster() ? "cluster" : "local",
        l.spec().maxWait().toString(),
        l.rejectedLastMinute(),
        l.topKeys(TOP_KEYS).stream()
            .map(k -> new LimiterView.KeyUse(k.key(), k.used(), k.limit()))
            .toList());
  }

  /** Limiter {@code name}, if there is one. */
  public Optional<LimiterStats> find(String name) {
    limits.applyChanges();
    return limits.find(name).map(NamedLimiter::stats);
  }

  /**
   * Changes limiter {@code name}'s limit, audited as {@code by}; returns it as it is now.
   *
   * @throws IllegalArgumentException if there is no such limiter or a value is invalid
   */
  public LimiterStats set(String name, int permits, Duration period, int burst, String by) {
    changes.set(name, permits, period, burst, by);
    return find(name).orElseThrow();
  }

  /**
   * Gives limiter {@code name} its declared limit back, audited as {@code by}; false if unchanged.
   */
  public boolean reset(String name, String by) {
    return changes.reset(name, by);
  }
}
