package io.taskgate.engine.throttle.jobs;

import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.WindowOptions;
import io.taskgate.engine.throttle.JobThrottlerReads;
import io.taskgate.engine.time.CachedRead;
import io.taskgate.store.ThrottlerRecord;
import io.taskgate.store.ThrottlerStore;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The definitions of semaphores and windows, read from the {@link ThrottlerStore} and cached: read
 * at the first use, then again off the caller's thread once older than {@link #TTL}, so that a
 * change made on another instance arrives. Thread-safe.
 */
final class JobDefinitions {
  /** How long definitions are cached before they are read again. */
  static final Duration TTL = Duration.ofSeconds(2);

  private final ThrottlerStore store;
  private final InstantSource clock;
  private final Supplier<Executor> executor;
  private final CachedRead cache;
  private volatile Map<String, ThrottlerRecord> byResource = Map.of();

  /**
   * Reads from {@code store}, again off the caller's thread on {@code executor} when it has one.
   */
  JobDefinitions(ThrottlerStore store, InstantSource clock, Supplier<Executor> executor) {
    this.store = store;
    this.clock = clock;
    this.executor = executor;
    this.cache = new CachedRead(TTL, () -> reload(clock.instant()));
  }

  /** Semaphore {@code id}'s max count; null if it is not defined. */
  Integer semaphore(String id) {
    ThrottlerRecord record = all().get(JobThrottlerReads.resource(ThrottlerKind.SEMAPHORE, id));
    return record == null ? null : record.limit();
  }

  /** Window {@code id}'s definition; null if it is not defined. */
  WindowOptions window(ThrottlerKind kind, String id) {
    ThrottlerRecord record = all().get(JobThrottlerReads.resource(kind, id));
    return record == null ? null : DefaultThrottlingManager.options(record);
  }

  /** Every definition, by kind then id. */
  List<ThrottlerRecord> list() {
    return all().values().stream()
        .sorted(Comparator.comparing(ThrottlerRecord::kind).thenComparing(ThrottlerRecord::id))
        .toList();
  }

  /** The definitions, by {@code kind:id}, read again if stale. */
  Map<String, ThrottlerRecord> all() {
    cache.refreshIfStale(clock.instant(), executor.get());
    return byResource;
  }

  /** Reads the definitions again now. */
  synchronized void reload(Instant now) {
    Map<String, ThrottlerRecord> read = new HashMap<>();
    for (ThrottlerRecord record : store.definitions()) {
      read.put(JobThrottlerReads.resource(record.kind(), record.id()), record);
    }
    byResource = Map.copyOf(read);
    cache.read(now);
  }
}
