package io.taskgate.bench;

import io.taskgate.bench.KeyedLimiters.KeyedLimiter;
import java.lang.ref.Reference;

/**
 * Retained heap per tracked key: each limiter takes {@code keys} keys (whose strings the caller
 * already holds, so they are not counted), then the heap in use is compared with the heap before,
 * after full collections. Run with a fixed heap and the serial collector for stable figures.
 */
public final class MemoryPerKey {
  private MemoryPerKey() {}

  public static void main(String[] args) throws InterruptedException {
    int keys = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    String[] names = new String[keys];
    for (int i = 0; i < keys; i++) {
      names[i] = "tenant-" + i;
    }
    System.out.printf("%-14s %12s %10s%n", "limiter", "keys", "bytes/key");
    for (String name :
        new String[] {"taskgate", "taskgate-try-acquire", "bucket4j", "resilience4j", "guava"}) {
      long before = usedAfterGc();
      KeyedLimiter limiter = KeyedLimiters.create(name, keys);
      for (String key : names) {
        limiter.tryAcquire(key, null, 0);
      }
      long after = usedAfterGc();
      System.out.printf("%-14s %12d %10.1f%n", name, keys, (after - before) / (double) keys);
      Reference.reachabilityFence(limiter);
    }
  }

  private static long usedAfterGc() throws InterruptedException {
    Runtime rt = Runtime.getRuntime();
    for (int i = 0; i < 4; i++) {
      System.gc();
      Thread.sleep(100);
    }
    return rt.totalMemory() - rt.freeMemory();
  }
}
