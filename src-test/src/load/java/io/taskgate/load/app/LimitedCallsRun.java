package io.taskgate.load.app;

import io.taskgate.api.RateLimitKey;
import io.taskgate.api.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@code @RateLimited} adds to a call in the container, Weld's interceptor dispatch included:
 * one bean's method called plainly (still through the bean's client proxy) and two limited ones,
 * unkeyed and keyed over many keys, every call admitted. Each call is timed alone; the variants
 * take turns in rounds, so that they share the machine's noise.
 */
@ApplicationScoped
public class LimitedCallsRun {

  /** The bean called: the same work with and without a limit. */
  @ApplicationScoped
  public static class Quotes {
    public long plain(String tenant, long sku) {
      return sku + tenant.length();
    }

    @RateLimited(
        value = "load-shared",
        permits = 1_000_000_000,
        period = "PT1S",
        burst = 1_000_000_000)
    public long shared(String tenant, long sku) {
      return sku + tenant.length();
    }

    @RateLimited(
        value = "load-keyed",
        permits = 1_000_000_000,
        period = "PT1S",
        burst = 1_000_000_000)
    public long keyed(@RateLimitKey String tenant, long sku) {
      return sku + tenant.length();
    }
  }

  private static final int ROUND = 1_000;

  @Inject Quotes quotes;

  /**
   * {@code calls} timed calls of each variant after as many untimed ones, over {@code keys} keys.
   *
   * @return per variant the p50, p99 and mean in nanoseconds, and the p50 added by the limit
   */
  public Map<String, Object> run(int calls, int keys) {
    String[] tenants = new String[keys];
    for (int i = 0; i < keys; i++) {
      tenants[i] = "tenant-" + i;
    }
    long[][] times = new long[3][calls];
    long sink = 0;
    for (int pass = 0; pass < 2; pass++) { // a warm-up pass, then the measured one
      int at = 0;
      while (at < calls) {
        int n = Math.min(ROUND, calls - at);
        for (int variant = 0; variant < 3; variant++) {
          for (int i = 0; i < n; i++) {
            String tenant = tenants[(at + i) % keys];
            long start = System.nanoTime();
            sink +=
                switch (variant) {
                  case 0 -> quotes.plain(tenant, i);
                  case 1 -> quotes.shared(tenant, i);
                  default -> quotes.keyed(tenant, i);
                };
            times[variant][at + i] = System.nanoTime() - start;
          }
        }
        at += n;
      }
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("calls", calls);
    result.put("keys", keys);
    String[] names = {"plain", "shared", "keyed"};
    long[] p50 = new long[3];
    for (int variant = 0; variant < 3; variant++) {
      long[] t = times[variant];
      Arrays.sort(t);
      p50[variant] = t[t.length / 2];
      result.put(names[variant] + "P50Nanos", p50[variant]);
      result.put(names[variant] + "P99Nanos", t[(int) (t.length * 0.99)]);
      result.put(names[variant] + "MeanNanos", Arrays.stream(t).sum() / t.length);
    }
    result.put("sharedAddedP50Nanos", p50[1] - p50[0]);
    result.put("keyedAddedP50Nanos", p50[2] - p50[0]);
    result.put("sink", sink); // keeps the calls from being optimized away
    return result;
  }
}
