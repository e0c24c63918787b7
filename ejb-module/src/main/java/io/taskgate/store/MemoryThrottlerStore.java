package io.taskgate.store;

import io.taskgate.api.ThrottlerKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link ThrottlerStore} in memory: the job throttlers' definitions, window counts and run-time
 * rate limits of an engine outside the container (the standalone engine) and of the throttlers'
 * unit tests; the JPA one is tested on H2 and PostgreSQL with the same expectations. Thread-safe.
 */
public final class MemoryThrottlerStore implements ThrottlerStore {
  private final Map<String, ThrottlerRecord> rows = new ConcurrentHashMap<>();
  private final List<ThrottlerChange> changes = new ArrayList<>();

  @Override
  public List<ThrottlerRecord> definitions() {
    return rows.values().stream()
        .sorted(Comparator.comparing(ThrottlerRecord::kind).thenComparing(ThrottlerRecord::id))
        .toList();
  }

  @Override
  public synchronized Optional<ThrottlerRecord> put(
      ThrottlerRecord record, String by, Instant now) {
    ThrottlerRecord before = rows.put(record.kind() + ":" + record.id(), record);
    if (before == null || !before.equals(record)) {
      changes.add(
          0,
          new ThrottlerChange(
              now,
              by,
              record.kind(),
              record.id(),
              before == null ? null : before.describe(),
              record.describe()));
    }
    return Optional.ofNullable(before);
  }

  @Override
  public synchronized Optional<ThrottlerRecord> remove(
      ThrottlerKind kind, String id, String by, Instant now) {
    ThrottlerRecord before = rows.remove(kind + ":" + id);
    if (before != null) {
      changes.add(0, new ThrottlerChange(now, by, kind, id, before.describe(), null));
    }
    return Optional.ofNullable(before);
  }

  private final Map<String, WindowCount> counts = new ConcurrentHashMap<>();
  private final Map<String, RateOverride> overrides = new ConcurrentHashMap<>();

  @Override
  public List<RateOverride> rateOverrides() {
    return List.copyOf(overrides.values());
  }

  @Override
  public synchronized Optional<RateOverride> putRateOverride(
      RateOverride override, String by, Instant now) {
    RateOverride before = overrides.put(override.taskType() + "\n" + override.key(), override);
    if (before == null || !before.equals(override)) {
      changes.add(
          0,
          new ThrottlerChange(
              now,
              by,
              ThrottlerKind.RATE_LIMIT,
              override.auditId(),
              before == null ? null : before.describe(),
              override.describe()));
    }
    return Optional.ofNullable(before);
  }

  @Override
  public synchronized Optional<RateOverride> removeRateOverride(
      String taskType, String key, String by, Instant now) {
    RateOverride before = overrides.remove(taskType + "\n" + key);
    if (before != null) {
      changes.add(
          0,
          new ThrottlerChange(
              now, by, ThrottlerKind.RATE_LIMIT, before.auditId(), before.describe(), null));
    }
    return Optional.ofNullable(before);
  }

  @Override
  public synchronized void addCount(String resource, String sub, long bucketStart, int delta) {
    counts.merge(
        resource + "|" + sub + "|" + bucketStart,
        new WindowCount(resource, sub, bucketStart, delta),
        (a, b) -> new WindowCount(resource, sub, bucketStart, a.count() + b.count()));
  }

  @Override
  public synchronized List<WindowCount> counts(long since) {
    return counts.values().stream()
        .filter(c -> c.bucketStart() >= since && c.count() > 0)
        .sorted(Comparator.comparingLong(WindowCount::bucketStart))
        .toList();
  }

  @Override
  public synchronized int dropCounts(long before) {
    int n = counts.size();
    counts.values().removeIf(c -> c.bucketStart() < before);
    return n - counts.size();
  }

  @Override
  public synchronized List<ThrottlerChange> changes(int max) {
    return List.copyOf(changes.subList(0, Math.min(max, changes.size())));
  }
}
