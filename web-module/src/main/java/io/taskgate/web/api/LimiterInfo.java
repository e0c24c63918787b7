package io.taskgate.web.api;

import io.taskgate.api.LimiterAlgorithm;
import io.taskgate.api.LimiterStats;
import io.taskgate.engine.admin.dto.LimiterView;
import java.time.Duration;
import java.util.List;

/**
 * A limiter as {@code /api/limiters} shows it: its limit now, its counts on this instance, the
 * calls it refused in the last minute and the keys using most of their budget now.
 *
 * @param name the limiter's name
 * @param algorithm how it counts
 * @param permits calls per period per key (at once, for a concurrency limiter)
 * @param period the period
 * @param burst calls back to back after an idle spell (a token bucket's capacity)
 * @param changed whether a run-time change applies
 * @param scope {@code local}, or {@code cluster} when every instance shares the budgets
 * @param maxWait how long a call over the limit may wait for a permit
 * @param granted calls let through (after waiting or not)
 * @param rejected calls refused (at once, or after waiting in vain)
 * @param rejectedLastMinute calls refused in the last minute
 * @param failedOpen calls let through untracked because the key table was full
 * @param waited calls that waited and then got their permit
 * @param waitTime the time those calls waited, in all
 * @param queued calls waiting now
 * @param keys keys tracked now
 * @param maxKeys the most keys tracked at once
 * @param busiestKeys up to five keys using most of their budget now, busiest first (none for scope
 *     cluster: the cluster does not list its keys)
 */
public record LimiterInfo(
    String name,
    LimiterAlgorithm algorithm,
    int permits,
    Duration period,
    int burst,
    boolean changed,
    String scope,
    Duration maxWait,
    long granted,
    long rejected,
    long rejectedLastMinute,
    long failedOpen,
    long waited,
    Duration waitTime,
    int queued,
    int keys,
    int maxKeys,
    List<LimiterView.KeyUse> busiestKeys) {

  static LimiterInfo of(LimiterView view) {
    LimiterStats s = view.stats();
    return new LimiterInfo(
        s.name(),
        s.algorithm(),
        s.permits(),
        s.period(),
        s.burst(),
        s.changed(),
        view.scope(),
        Duration.parse(view.maxWait()),
        s.granted(),
        s.rejected(),
        view.rejectedLastMinute(),
        s.failedOpen(),
        s.waited(),
        s.waitTime(),
        s.queued(),
        s.keys(),
        s.maxKeys(),
        view.topKeys());
  }
}
