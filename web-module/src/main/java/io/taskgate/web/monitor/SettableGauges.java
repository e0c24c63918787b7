package io.taskgate.web.monitor;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Gauges whose values a refresher sets: each registered on its first value, its holder set after
 * that; those a refresh no longer shows can be removed.
 */
final class SettableGauges {
  private final MetricRegistry registry;
  private final Map<MetricID, AtomicLong> values = new ConcurrentHashMap<>();

  SettableGauges(MetricRegistry registry) {
    this.registry = registry;
  }

  /** Sets the gauge {@code name} with {@code tags} to {@code value}; returns its id. */
  MetricID set(String name, String description, String unit, long value, Tag... tags) {
    MetricID id = new MetricID(name, tags);
    AtomicLong holder = values.get(id);
    if (holder == null) {
      AtomicLong created = new AtomicLong(value);
      registry.gauge(MetricMetadata.of(name, description, unit), created::get, tags);
      values.put(id, created);
    } else {
      holder.set(value);
    }
    return id;
  }

  /** Removes every gauge set here whose id is not in {@code kept}. */
  void retainOnly(Set<MetricID> kept) {
    for (MetricID id : Set.copyOf(values.keySet())) {
      if (!kept.contains(id)) {
        registry.remove(id);
        values.remove(id);
      }
    }
  }
}
