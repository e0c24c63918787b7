package io.taskgate.engine.throttle.ratelimit;

import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.engine.throttle.PacingMark;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.eclipse.microprofile.config.Config;

/**
 * The recent pacing of rate-limited keys, for the monitoring view: per (task type, key) the last
 * {@value #MARKS_PER_KEY} marks (a task started, with the slot it waited for; a slot was reserved),
 * for at most {@value #MAX_KEYS_KEY} keys (default {@value #DEFAULT_MAX_KEYS}).
 *
 * <p>Written on the gate's path without locks: a lookup in a concurrent map, then one slot of a
 * ring set by an atomic counter. A key gets a ring when one of its tasks is deferred (evicting the
 * least recently active keys once a quarter over the cap, by one thread while the others go on), or
 * when one of its tasks starts while there is room, so that a busy application with many keys
 * records the throttled ones. Readers copy a ring without stopping writers: a mark being
 * overwritten may be missed.
 */
@ApplicationScoped
public class PacingLog {
  /** Config key: the most keys with a ring. */
  public static final String MAX_KEYS_KEY = "taskgate.monitor.pacing-keys";

  /** The default {@link #MAX_KEYS_KEY}. */
  public static final int DEFAULT_MAX_KEYS = 1000;

  /** Marks kept per key. */
  public static final int MARKS_PER_KEY = 200;

  private final Config config;

  private final Map<String, Map<String, Ring>> rings = new ConcurrentHashMap<>();
  private final AtomicInteger keys = new AtomicInteger();
  private final AtomicBoolean evicting = new AtomicBoolean();
  private int maxKeys;

  /** For the CDI proxy. */
  protected PacingLog() {
    this((Config) null);
  }

  /** A log of at most {@link #MAX_KEYS_KEY} keys, read from {@code config} once constructed. */
  @Inject
  PacingLog(Config config) {
    this.config = config;
  }

  /** A log of at most {@code maxKeys} keys, for tests and code outside the container. */
  public PacingLog(int maxKeys) {
    this.config = null;
    this.maxKeys = checked(maxKeys);
  }

  @PostConstruct
  void load() {
    maxKeys =
        checked(config.getOptionalValue(MAX_KEYS_KEY, Integer.class).orElse(DEFAULT_MAX_KEYS));
  }

  private static int checked(int maxKeys) {
    if (maxKeys < 1) {
      throw new IllegalArgumentException(
          "Configuration " + MAX_KEYS_KEY + " must be at least 1, was " + maxKeys);
    }
    return maxKeys;
  }

  /** The most keys with a ring. */
  public int maxKeys() {
    return maxKeys;
  }

  /**
   * A task of {@code scope}'s {@code key} started at {@code at}, having waited for {@code slot}.
   */
  public void started(String scope, String key, Instant at, Instant slot) {
    Ring ring = ring(scope, key, false, EpochNanos.of(at));
    if (ring != null) {
      ring.add(new PacingMark(PacingMark.Kind.STARTED, at, slot));
    }
  }

  /** A task of {@code scope}'s {@code key} was deferred at {@code at} to {@code slot}. */
  public void reserved(String scope, String key, Instant at, Instant slot) {
    ring(scope, key, true, EpochNanos.of(at))
        .add(new PacingMark(PacingMark.Kind.RESERVED, at, slot));
  }

  /** The key's marks, oldest first; empty when it has no ring. */
  public Optional<List<PacingMark>> marks(String scope, String key) {
    Map<String, Ring> ofScope = rings.get(scope);
    Ring ring = ofScope == null ? null : ofScope.get(key);
    return ring == null ? Optional.empty() : Optional.of(ring.copy());
  }

  /** Keys with a ring now. */
  public int keys() {
    return keys.get();
  }

  private Ring ring(String scope, String key, boolean always, long now) {
    Map<String, Ring> ofScope = rings.get(scope);
    Ring ring = ofScope == null ? null : ofScope.get(key);
    if (ring != null) {
      ring.lastActive = now;
      return ring;
    }
    if (!always && keys.get() >= maxKeys) {
      return null;
    }
    Ring created = new Ring(now);
    ring = rings.computeIfAbsent(scope, s -> new ConcurrentHashMap<>()).putIfAbsent(key, created);
    if (ring != null) {
      return ring;
    }
    if (keys.incrementAndGet() > maxKeys + Math.max(1, maxKeys / 4)) {
      evictOldest();
    }
    return created;
  }

  /** Drops the least recently active keys down to the cap; one thread at a time, others skip. */
  private void evictOldest() {
    if (!evicting.compareAndSet(false, true)) {
      return;
    }
    try {
      record Entry(String scope, String key, long lastActive) {}
      List<Entry> all = new ArrayList<>();
      rings.forEach(
          (scope, ofScope) ->
              ofScope.forEach((key, r) -> all.add(new Entry(scope, key, r.lastActive))));
      all.sort(Comparator.comparingLong(Entry::lastActive));
      int excess = all.size() - maxKeys;
      for (int i = 0; i < excess; i++) {
        Entry e = all.get(i);
        Map<String, Ring> ofScope = rings.get(e.scope());
        if (ofScope != null && ofScope.remove(e.key()) != null) {
          keys.decrementAndGet();
        }
      }
    } finally {
      evicting.set(false);
    }
  }

  private static final class Ring {
    final AtomicReferenceArray<PacingMark> marks = new AtomicReferenceArray<>(MARKS_PER_KEY);
    final AtomicLong written = new AtomicLong();
    volatile long lastActive;

    Ring(long lastActive) {
      this.lastActive = lastActive;
    }

    void add(PacingMark mark) {
      long n = written.getAndIncrement();
      marks.set((int) (n % MARKS_PER_KEY), mark);
    }

    List<PacingMark> copy() {
      long n = written.get();
      List<PacingMark> copy = new ArrayList<>(MARKS_PER_KEY);
      for (long i = Math.max(0, n - MARKS_PER_KEY); i < n; i++) {
        PacingMark mark = marks.get((int) (i % MARKS_PER_KEY));
        if (mark != null) {
          copy.add(mark);
        }
      }
      copy.sort(Comparator.comparing(PacingMark::at));
      return copy;
    }
  }
}
