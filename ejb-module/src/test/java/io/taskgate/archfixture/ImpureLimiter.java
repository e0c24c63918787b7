package io.taskgate.archfixture;

import java.time.Instant;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Breaks every rule of the pure core on purpose, so that {@code ArchitectureTest} can show its
 * rules catch each kind of breach. Never used by production code.
 */
public class ImpureLimiter {
  private final ReentrantLock lock = new ReentrantLock();

  public synchronized long clock() {
    return System.currentTimeMillis() + System.nanoTime() + Instant.now().getNano();
  }

  public void sleepy() throws InterruptedException {
    lock.lock();
    try {
      Thread.sleep(1);
    } finally {
      lock.unlock();
    }
  }

  public Object container() {
    return jakarta.enterprise.inject.spi.CDI.class;
  }
}
