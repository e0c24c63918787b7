package io.taskgate.core.limiter;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a limiter script against a hand-moved clock in milliseconds. Steps are separated by {@code
 * ;}, each {@code <ms> <what> [<expectation>]}:
 *
 * <ul>
 *   <li>{@code 250 2 ok}: tryAcquire(2) at 250 ms is granted;
 *   <li>{@code 250 2 wait750}: refused with a retry-after of exactly 750 ms ({@code waitns<n>} for
 *       nanoseconds); {@code 250 2 no}: refused without retry-after;
 *   <li>{@code 250 avail 3}, {@code 250 idle true}: availablePermits / isIdle;
 *   <li>{@code 250 probe2 ok} (or {@code wait…}/{@code no}): probe(2), which must not consume;
 *   <li>{@code 250 close 4}: closes the lease returned by step 4 (0-based).
 * </ul>
 */
final class Script {

  private Script() {}

  static long ms(long millis) {
    return millis * 1_000_000L;
  }

  static void run(RateLimiter limiter, String script) {
    List<RateLimitLease> leases = new ArrayList<>();
    String[] steps = script.split(";");
    for (int i = 0; i < steps.length; i++) {
      String step = steps[i].trim();
      String[] t = step.split("\\s+");
      long now = ms(Long.parseLong(t[0]));
      String what = t[1];
      String as = "step " + i + " '" + step + "' of '" + script + "'";
      RateLimitLease lease = null;
      if (what.equals("avail")) {
        assertThat(limiter.availablePermits(now)).as(as).isEqualTo(Integer.parseInt(t[2]));
      } else if (what.equals("idle")) {
        assertThat(limiter.isIdle(now)).as(as).isEqualTo(Boolean.parseBoolean(t[2]));
      } else if (what.equals("close")) {
        leases.get(Integer.parseInt(t[2])).close();
      } else if (what.startsWith("probe")) {
        int permits = Integer.parseInt(what.substring("probe".length()));
        int before = limiter.availablePermits(now);
        expect(limiter.probe(permits, now), t[2], as);
        assertThat(limiter.availablePermits(now)).as(as + " (probe consumed)").isEqualTo(before);
      } else {
        lease = limiter.tryAcquire(Integer.parseInt(what), now);
        expect(lease, t[2], as);
      }
      leases.add(lease);
    }
  }

  static void expect(RateLimitLease lease, String expectation, String as) {
    if (expectation.equals("ok")) {
      assertThat(lease.isAcquired()).as(as + ": " + lease).isTrue();
      assertThat(lease.retryAfter()).as(as).isEmpty();
      assertThat(lease.reason()).as(as).isEmpty();
    } else if (expectation.equals("no")) {
      assertThat(lease.isAcquired()).as(as + ": " + lease).isFalse();
      assertThat(lease.retryAfterNanos()).as(as).isEmpty();
      assertThat(lease.reason()).as(as).isPresent();
    } else if (expectation.startsWith("waitns")) {
      assertRefused(lease, Long.parseLong(expectation.substring("waitns".length())), as);
    } else if (expectation.startsWith("wait")) {
      assertRefused(lease, ms(Long.parseLong(expectation.substring("wait".length()))), as);
    } else {
      throw new IllegalArgumentException("unknown expectation " + expectation + " in " + as);
    }
  }

  private static void assertRefused(RateLimitLease lease, long retryAfterNanos, String as) {
    assertThat(lease.isAcquired()).as(as + ": " + lease).isFalse();
    assertThat(lease.retryAfterNanos()).as(as + ": " + lease).hasValue(retryAfterNanos);
    assertThat(lease.reason()).as(as).isPresent();
  }
}
