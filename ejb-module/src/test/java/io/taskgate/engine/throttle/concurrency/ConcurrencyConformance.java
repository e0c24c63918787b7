package io.taskgate.engine.throttle.concurrency;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.concurrency.ConcurrencyFixture.TwoPerTenant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Workers on several instances (each a {@link ConcurrencyFixture} on one shared state) run tasks of
 * three tenants as fast as they can under a limit of 2 per tenant: every run counts itself in while
 * it holds its place; no tenant may ever count more than 2, and the tenants must have run side by
 * side (more than 2 at once overall), or the check proved nothing.
 */
final class ConcurrencyConformance {
  static final int WORKERS = 8;
  static final int RUNS_PER_WORKER = 300;

  /** How long a run holds its place: long enough for the tenants to run side by side. */
  static final long HOLD_NANOS = 500_000;

  private ConcurrencyConformance() {}

  static void check(List<ConcurrencyFixture> instances) throws Exception {
    List<Throttle> throttles = new ArrayList<>();
    instances.forEach(i -> throttles.add(i.throttle(TwoPerTenant.class)));
    Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
    Map<String, AtomicInteger> most = new ConcurrentHashMap<>();
    AtomicInteger all = new AtomicInteger();
    AtomicInteger mostOverall = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
    try {
      List<Future<Integer>> workers = new ArrayList<>();
      for (int w = 0; w < WORKERS; w++) {
        Throttle throttle = throttles.get(w % throttles.size());
        int worker = w;
        workers.add(
            pool.submit(
                () -> {
                  int ran = 0;
                  for (int i = 0; i < RUNS_PER_WORKER; i++) {
                    String tenant = "t" + ((worker + i) % 3);
                    var decision =
                        throttle.acquire(
                            ConcurrencyFixture.attempt(TwoPerTenant.class, tenant),
                            ConcurrencyFixture.T0);
                    if (!(decision instanceof ThrottleDecision.Run run)) {
                      continue;
                    }
                    int now =
                        running.computeIfAbsent(tenant, t -> new AtomicInteger()).incrementAndGet();
                    most.computeIfAbsent(tenant, t -> new AtomicInteger())
                        .accumulateAndGet(now, Math::max);
                    mostOverall.accumulateAndGet(all.incrementAndGet(), Math::max);
                    LockSupport.parkNanos(HOLD_NANOS);
                    all.decrementAndGet();
                    running.get(tenant).decrementAndGet();
                    throttle.release(run.permit(), AttemptEnd.COMPLETED);
                    ran++;
                  }
                  return ran;
                }));
      }
      int ran = 0;
      for (Future<Integer> worker : workers) {
        ran += worker.get(2, TimeUnit.MINUTES);
      }
      assertThat(ran).as("runs let through").isPositive();
    } finally {
      pool.shutdownNow();
    }
    assertThat(most).hasSize(3);
    most.forEach(
        (tenant, n) ->
            assertThat(n.get()).as("most of %s running at once", tenant).isLessThanOrEqualTo(2));
    assertThat(mostOverall.get()).as("most running at once, every tenant").isGreaterThan(2);
  }
}
