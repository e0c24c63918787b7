package io.taskgate.bench;

import com.hazelcast.config.Config;
import com.hazelcast.config.TcpIpConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.grid.hazelcast.Bucket4jHazelcast;
import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.engine.budget.InMemoryKeyedRateLimiter;
import io.taskgate.engine.cluster.grid.GridKeyedRateLimiter;
import io.taskgate.engine.cluster.grid.GridMaps;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.function.IntPredicate;

/**
 * One budget per key in a data grid: Taskgate's grid limiter against Bucket4j on the same Hazelcast
 * (the version Payara ships), its entry-processor proxy manager and its compare-and-swap one. Two
 * Hazelcast members in this JVM joined over TCP on the loopback; calls are made on the first, so
 * that about half the keys live on the other member. Each contender runs {@code seconds} after a
 * warm-up, {@code runs} times in rotating order; per call the latency is recorded, so the table has
 * throughput (calls/s) and the latency's p50 / p99 / p99.9.
 *
 * <p>Arguments: seconds (10), threads (2), keys (1000), runs (3).
 */
public final class GridLimiterBench {
  private static final long MS = 1_000_000L;
  private static final int MAX_SAMPLES = 4_000_000;

  private GridLimiterBench() {}

  interface Contender {
    boolean call(int key);
  }

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    int keys = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
    int runs = args.length > 3 ? Integer.parseInt(args[3]) : 3;

    String cluster = "taskgate-bench-" + UUID.randomUUID();
    HazelcastInstance caller = Hazelcast.newHazelcastInstance(config(cluster));
    HazelcastInstance other = Hazelcast.newHazelcastInstance(config(cluster));
    try {
      Map<String, Contender> contenders = contenders(caller, keys);
      Map<String, List<double[]>> results = new TreeMap<>();
      List<String> names = new ArrayList<>(contenders.keySet());
      for (int run = 0; run < runs; run++) {
        for (int i = 0; i < names.size(); i++) {
          String name = names.get((i + run) % names.size());
          Contender contender = contenders.get(name);
          measure(contender, threads, keys, Math.max(2, seconds / 3)); // warm-up
          double[] figures = measure(contender, threads, keys, seconds);
          results.computeIfAbsent(name, k -> new ArrayList<>()).add(figures);
          System.out.printf(
              "run %d %-26s %,10.0f calls/s  p50 %7.1f µs  p99 %7.1f µs  p99.9 %7.1f µs%n",
              run + 1, name, figures[0], figures[1], figures[2], figures[3]);
        }
      }
      System.out.printf(
          "%n| limiter | calls/s (median, min–max) | p50 µs | p99 µs | p99.9 µs |%n|---|---|---|---|---|%n");
      for (var entry : results.entrySet()) {
        List<double[]> r = entry.getValue();
        System.out.printf(
            "| %s | %,.0f (%,.0f–%,.0f) | %.0f | %.0f | %.0f |%n",
            entry.getKey(),
            median(r, 0),
            r.stream().mapToDouble(f -> f[0]).min().orElse(0),
            r.stream().mapToDouble(f -> f[0]).max().orElse(0),
            median(r, 1),
            median(r, 2),
            median(r, 3));
      }
    } finally {
      other.getLifecycleService().terminate();
      caller.getLifecycleService().terminate();
    }
  }

  static Map<String, Contender> contenders(HazelcastInstance caller, int keys) {
    Map<String, Contender> contenders = new TreeMap<>();

    RateLimitScope scope =
        new RateLimitScope("Bench", RateLimitPolicy.of(1_000_000, Duration.ofSeconds(1)));
    GridKeyedRateLimiter taskgate =
        new GridKeyedRateLimiter(
            GridMaps.budgets(caller, keys * 2),
            () -> caller.getCluster().getMembers().size(),
            Duration.ofSeconds(5),
            () -> new InMemoryKeyedRateLimiter(keys * 2),
            keys * 2);
    String[] names = new String[keys];
    for (int k = 0; k < keys; k++) {
      names[k] = "key-" + k;
    }
    contenders.put(
        "taskgate-grid",
        key -> taskgate.reserve(scope, names[key], UUID.randomUUID(), nowNanos()).runsNow());

    BucketConfiguration configuration =
        BucketConfiguration.builder()
            .addLimit(
                limit -> limit.capacity(1_000_000).refillGreedy(1_000_000, Duration.ofSeconds(1)))
            .build();
    IMap<String, byte[]> entryMap = caller.getMap("bucket4j-entry-processor");
    contenders.put(
        "bucket4j-entry-processor",
        buckets(
            Bucket4jHazelcast.entryProcessorBasedBuilder(entryMap).build(), names, configuration));
    IMap<String, byte[]> casMap = caller.getMap("bucket4j-cas");
    contenders.put(
        "bucket4j-compare-and-swap",
        buckets(Bucket4jHazelcast.casBasedBuilder(casMap).build(), names, configuration));
    return contenders;
  }

  static Contender buckets(
      ProxyManager<String> manager, String[] names, BucketConfiguration configuration) {
    BucketProxy[] buckets = new BucketProxy[names.length];
    for (int k = 0; k < names.length; k++) {
      buckets[k] = manager.builder().build(names[k], () -> configuration);
    }
    IntPredicate consume = key -> buckets[key].tryConsume(1);
    return consume::test;
  }

  /** Throughput (calls/s) and the p50 / p99 / p99.9 latency (µs) of {@code seconds} of calls. */
  static double[] measure(Contender contender, int threads, int keys, int seconds)
      throws InterruptedException {
    long[][] samples = new long[threads][MAX_SAMPLES / threads];
    int[] counts = new int[threads];
    long[] calls = new long[threads];
    CountDownLatch done = new CountDownLatch(threads);
    long end = System.nanoTime() + seconds * 1000 * MS;
    for (int t = 0; t < threads; t++) {
      int thread = t;
      Thread worker =
          new Thread(
              () -> {
                SplittableRandom random = new SplittableRandom(thread);
                long[] mine = samples[thread];
                int n = 0;
                long c = 0;
                long now;
                while ((now = System.nanoTime()) < end) {
                  contender.call(random.nextInt(keys));
                  long took = System.nanoTime() - now;
                  if (n < mine.length) {
                    mine[n++] = took;
                  }
                  c++;
                }
                counts[thread] = n;
                calls[thread] = c;
                done.countDown();
              });
      worker.start();
    }
    done.await();
    int total = Arrays.stream(counts).sum();
    long[] all = new long[total];
    int at = 0;
    for (int t = 0; t < threads; t++) {
      System.arraycopy(samples[t], 0, all, at, counts[t]);
      at += counts[t];
    }
    Arrays.sort(all);
    return new double[] {
      Arrays.stream(calls).sum() / (double) seconds,
      all[(int) (total * 0.50)] / 1000.0,
      all[(int) (total * 0.99)] / 1000.0,
      all[Math.min(total - 1, (int) (total * 0.999))] / 1000.0
    };
  }

  static Config config(String cluster) {
    Config config = new Config().setClusterName(cluster);
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.logging.type", "none");
    config.getNetworkConfig().setPort(5951).setPortAutoIncrement(true);
    config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
    TcpIpConfig tcp = config.getNetworkConfig().getJoin().getTcpIpConfig().setEnabled(true);
    for (int port = 5951; port <= 5960; port++) {
      tcp.addMember("127.0.0.1:" + port);
    }
    config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
    return config;
  }

  private static long nowNanos() {
    java.time.Instant now = java.time.Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  private static double median(List<double[]> runs, int column) {
    double[] values = runs.stream().mapToDouble(f -> f[column]).sorted().toArray();
    return values[values.length / 2];
  }
}
