package io.taskgate.core.limiter;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * All-or-nothing across several limiters (for example a global limit and a per-tenant one): a
 * request is granted only if every member grants it.
 *
 * <p>A request first {@linkplain RateLimiter#probe probes} every member, taking nothing; if any
 * would refuse, the chain refuses at once with the largest retry-after among the refusing members
 * (none if no refusing member can tell) and their reasons joined. Only when all would grant does it
 * acquire from the members in order. If a member still refuses then (another caller took the
 * permits in between), the leases already taken are closed: concurrency limiters get their permits
 * back, but rate limiters (token bucket, GCRA, windows, sliding log) cannot give consumed permits
 * back, so those stay spent. The combined lease releases every member lease when closed.
 */
public final class ChainedLimiter implements RateLimiter {

  private final List<RateLimiter> limiters;
  private final int permitLimit;

  public ChainedLimiter(List<? extends RateLimiter> limiters) {
    Objects.requireNonNull(limiters, "limiters");
    if (limiters.isEmpty()) {
      throw new IllegalArgumentException("limiters must not be empty");
    }
    this.limiters = List.copyOf(limiters);
    this.permitLimit =
        this.limiters.stream().mapToInt(RateLimiter::permitLimit).min().orElseThrow();
  }

  public static ChainedLimiter of(RateLimiter... limiters) {
    return new ChainedLimiter(List.of(limiters));
  }

  @Override
  public RateLimitLease tryAcquire(int permits, long nowNanos) {
    RateLimitLease probe = probe(permits, nowNanos);
    if (permits == 0 || !probe.isAcquired()) {
      return probe;
    }
    List<RateLimitLease> taken = new ArrayList<>(limiters.size());
    for (int i = 0; i < limiters.size(); i++) {
      RateLimitLease lease = limiters.get(i).tryAcquire(permits, nowNanos);
      if (!lease.isAcquired()) {
        taken.forEach(RateLimitLease::close);
        List<RateLimitLease> refusals = new ArrayList<>();
        refusals.add(lease);
        for (RateLimiter rest : limiters.subList(i + 1, limiters.size())) {
          refusals.add(rest.probe(permits, nowNanos));
        }
        return combine(permits, refusals);
      }
      taken.add(lease);
    }
    return RateLimitLease.acquired(permits, () -> taken.forEach(RateLimitLease::close));
  }

  @Override
  public RateLimitLease probe(int permits, long nowNanos) {
    Checks.permits(permits, permitLimit, this);
    List<RateLimitLease> answers = new ArrayList<>(limiters.size());
    for (RateLimiter limiter : limiters) {
      answers.add(limiter.probe(permits, nowNanos));
    }
    return combine(permits, answers);
  }

  private static RateLimitLease combine(int permits, List<RateLimitLease> answers) {
    long retryAfter = -1;
    List<String> reasons = new ArrayList<>();
    for (RateLimitLease answer : answers) {
      if (!answer.isAcquired()) {
        reasons.add(answer.reason().orElse("refused"));
        retryAfter = Math.max(retryAfter, answer.retryAfterNanos().orElse(-1));
      }
    }
    if (reasons.isEmpty()) {
      return RateLimitLease.acquired(permits);
    }
    String reason = String.join("; ", reasons);
    return retryAfter < 0
        ? RateLimitLease.rejected(permits, reason)
        : RateLimitLease.rejected(permits, retryAfter, reason);
  }

  @Override
  public int availablePermits(long nowNanos) {
    return limiters.stream().mapToInt(l -> l.availablePermits(nowNanos)).min().orElseThrow();
  }

  @Override
  public int permitLimit() {
    return permitLimit;
  }

  @Override
  public boolean isIdle(long nowNanos) {
    return limiters.stream().allMatch(l -> l.isIdle(nowNanos));
  }
}
