package io.taskgate.engine.admin;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.api.TaskStatus;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.KeyQuery;
import io.taskgate.core.ratelimit.KeySnapshot;
import io.taskgate.core.ratelimit.KeyState;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitKeys;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.engine.admin.dto.Overview;
import io.taskgate.engine.admin.dto.Pacing;
import io.taskgate.engine.admin.dto.PolicyView;
import io.taskgate.engine.admin.dto.PushBackView;
import io.taskgate.engine.admin.dto.RateLimitPage;
import io.taskgate.engine.admin.dto.RateLimitQuery;
import io.taskgate.engine.admin.dto.RateLimitRow;
import io.taskgate.engine.admin.dto.RateLimitSort;
import io.taskgate.engine.admin.dto.RateLimitTotals;
import io.taskgate.engine.admin.dto.RestoredView;
import io.taskgate.engine.cluster.Instances;
import io.taskgate.engine.handler.GateSpec;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.HandlerRegistry;
import io.taskgate.engine.queue.QueueSettings;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.schedule.Retention;
import io.taskgate.engine.schedule.RetentionSettings;
import io.taskgate.engine.throttle.PacingMark;
import io.taskgate.engine.throttle.ParkedTask;
import io.taskgate.engine.throttle.PushBack;
import io.taskgate.engine.throttle.RateLimitReads;
import io.taskgate.engine.throttle.Restored;
import io.taskgate.store.InstanceRecord;
import io.taskgate.store.ParkedSummary;
import io.taskgate.store.TaskQueries;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The throttled view, read-only: which (task type, key) is throttled, why and until when ({@link
 * #rateLimits}), tasks at a glance ({@link #overview}), and one key's recent pacing ({@link
 * #pacing}). Answers in display records; never changes anything.
 *
 * <p>Cost: a rate-limit page asks the limiter for the first rows in the asked order ({@link
 * KeyedRateLimiter#keys}: one pass over the tracked keys, memory bounded by the page's depth) and
 * walks the parked tasks once (at most {@code taskgate.rate-limit.max-parked-tasks}), without
 * copying them, adding what the live peers sharing the database listed at their last heartbeat. The
 * overview is one grouped count in the store plus that walk.
 */
@ApplicationScoped
public class ThrottleViews {
  @Inject RateLimitReads rateLimits;

  @Inject KeyedRateLimiter limiter;
  @Inject TaskQueues queues;
  @Inject QueueSettings queueSettings;
  @Inject HandlerRegistry registry;
  @Inject TaskAdmin admin;
  @Inject TaskQueries queries;
  @Inject InstantSource clock;
  @Inject Instances instances;
  @Inject Retention retention;

  /** The parked tasks of one (scope, key): how many, and their latest slot. */
  private static final class ParkedKey {
    int count;
    Instant latest;
  }

  /**
   * A page of (task type, key) rows and the totals.
   *
   * @throws io.taskgate.api.UnknownTaskTypeException if the query's task type names none
   */
  public RateLimitPage rateLimits(RateLimitQuery query) {
    Instant at = clock.instant();
    long now = EpochNanos.of(at);
    Optional<String> scope = query.taskType().map(admin::resolveTaskType);
    List<ParkedSummary> peers = peersParked(at);
    Map<String, Map<String, ParkedKey>> parked = parkedByKey(peers);
    int throttledKeys =
        parked.values().stream().mapToInt(Map::size).sum()
            + peers.stream().mapToInt(ParkedSummary::unlistedKeys).sum();
    int peerParked = peers.stream().mapToInt(ParkedSummary::tasks).sum();

    Comparator<KeyState> order = order(query, parked, now);
    Predicate<KeyState> filter =
        query.throttledOnly() ? k -> k.throttledAt(now) || parkedOf(parked, k) != null : k -> true;
    int depth = query.page() * query.size() + query.size();
    KeyQuery keyQuery = new KeyQuery(scope, query.keyContains(), filter, order, depth);
    KeySnapshot snapshot = limiter.keys(keyQuery, now);
    boolean keysListed = snapshot.supported();
    if (!keysListed) {
      snapshot = fromParked(keyQuery, parked, now);
    }

    List<RateLimitRow> rows = new ArrayList<>(query.size());
    Map<RateLimitPolicy, PolicyView> policies = new HashMap<>();
    List<KeyState> keys = snapshot.keys();
    for (int i = query.page() * query.size(); i < keys.size(); i++) {
      KeyState key = keys.get(i);
      ParkedKey parkedKey = parkedOf(parked, key);
      rows.add(
          new RateLimitRow(
              key.scope(),
              key.key(),
              key.throttledAt(now) || parkedKey != null,
              parkedKey == null ? 0 : parkedKey.count,
              key.throttledAt(now) ? EpochNanos.toInstant(key.nextSlotEpochNanos()) : null,
              parkedKey == null ? null : parkedKey.latest,
              key.availablePermits(),
              policies.computeIfAbsent(key.policy(), PolicyView::of),
              pushBackOf(key, now),
              restoredOf(key, now)));
    }
    KeyedRateLimiter.Stats stats = KeyedRateLimiter.statsOf(limiter);
    RateLimitTotals totals =
        new RateLimitTotals(
            stats.trackedKeys(),
            stats.maxTrackedKeys(),
            stats.untrackedDecisions(),
            throttledKeys,
            rateLimits.parkedCount(),
            peerParked,
            rateLimits.maxParkedTasks(),
            queues.held(),
            stats.pendingReservations(),
            keysListed);
    return new RateLimitPage(rows, query.page(), query.size(), snapshot.matched(), totals, at);
  }

  private static Comparator<KeyState> order(
      RateLimitQuery query, Map<String, Map<String, ParkedKey>> parked, long now) {
    Comparator<KeyState> primary =
        switch (query.sort()) {
          case KEY -> KeyQuery.BY_SCOPE_AND_KEY;
          case PARKED ->
              Comparator.comparingInt(
                  (KeyState k) -> {
                    ParkedKey p = parkedOf(parked, k);
                    return p == null ? 0 : p.count;
                  });
          case NEXT_SLOT ->
              Comparator.comparingLong((KeyState k) -> Math.max(k.nextSlotEpochNanos(), now));
        };
    if (query.descending()) {
      primary = primary.reversed();
    }
    return query.sort() == RateLimitSort.KEY
        ? primary
        : primary.thenComparing(KeyQuery.BY_SCOPE_AND_KEY);
  }

  private static ParkedKey parkedOf(Map<String, Map<String, ParkedKey>> parked, KeyState key) {
    Map<String, ParkedKey> ofScope = parked.get(key.scope());
    return ofScope == null ? null : ofScope.get(key.key());
  }

  /**
   * The parked tasks by (scope, key): this instance's now, and those its live {@code peers} listed
   * at their last heartbeat (each lists its {@value ParkedSummary#MAX_KEYS} keys with the most).
   */
  private Map<String, Map<String, ParkedKey>> parkedByKey(List<ParkedSummary> peers) {
    Map<String, Map<String, ParkedKey>> parked = new HashMap<>();
    for (ParkedTask task : rateLimits.parkedTasks()) {
      parked(parked, task.scope().name(), task.key(), 1, task.slot());
    }
    for (ParkedSummary peer : peers) {
      for (ParkedSummary.Key key : peer.top()) {
        parked(parked, key.scope(), key.key(), key.tasks(), key.latestSlot());
      }
    }
    return parked;
  }

  private static void parked(
      Map<String, Map<String, ParkedKey>> parked,
      String scope,
      String name,
      int tasks,
      Instant slot) {
    ParkedKey key =
        parked
            .computeIfAbsent(scope, s -> new HashMap<>())
            .computeIfAbsent(name, k -> new ParkedKey());
    key.count += tasks;
    if (key.latest == null || slot.isAfter(key.latest)) {
      key.latest = slot;
    }
  }

  /** What the live peers had parked at their last heartbeat. */
  private List<ParkedSummary> peersParked(Instant now) {
    return instances.alivePeers(now).stream().map(InstanceRecord::parked).toList();
  }

  /** Rows for a limiter that cannot list its keys: the keys with parked tasks, peeked at. */
  private KeySnapshot fromParked(
      KeyQuery query, Map<String, Map<String, ParkedKey>> parked, long now) {
    KeySnapshot.Collector collector = new KeySnapshot.Collector(query);
    for (HandlerInfo handler : registry.all()) {
      GateSpec gate = handler.gate().orElse(null);
      Map<String, ParkedKey> ofScope = gate == null ? null : parked.get(gate.scope().name());
      if (ofScope == null) {
        continue;
      }
      for (String key : ofScope.keySet()) {
        if (query.matches(gate.scope().name(), key)) {
          collector.offer(peeked(gate, key, now));
        }
      }
    }
    return collector.snapshot();
  }

  private KeyState peeked(GateSpec gate, String key, long now) {
    RateLimitScope scope = rateLimits.scopeOf(gate, key);
    long slot = limiter.peek(scope, key, now).slotEpochNanos();
    boolean waits = slot > now;
    return new KeyState(scope.name(), key, scope.policy(), waits ? slot : now, waits ? 0 : 1);
  }

  /** Task counts by status and per queue, with the throttled counts while any task is throttled. */
  public Overview overview() {
    Instant at = clock.instant();
    Map<String, Map<TaskStatus, Long>> counts = queries.countByQueueAndStatus();
    Map<String, QueueSettings.Sizes> configured = queueSettings.queues();
    Map<String, Integer> depths = queues.depths();
    Map<String, Integer> throttled = new HashMap<>(queues.heldByQueue());
    int held = throttled.values().stream().mapToInt(Integer::intValue).sum();
    int parkedTasks = 0;
    for (ParkedTask task : rateLimits.parkedTasks()) {
      throttled.merge(task.task().queue(), 1, Integer::sum);
      parkedTasks++;
    }

    List<String> names = new ArrayList<>(configured.keySet());
    counts.keySet().stream().filter(q -> !configured.containsKey(q)).sorted().forEach(names::add);
    Map<String, Long> all = byStatus(Map.of());
    List<Overview.QueueOverview> queueViews = new ArrayList<>(names.size());
    for (String name : names) {
      Map<TaskStatus, Long> ofQueue = counts.getOrDefault(name, Map.of());
      ofQueue.forEach((status, n) -> all.merge(status.name(), n, Long::sum));
      QueueSettings.Sizes sizes = configured.get(name);
      int waiting = throttled.getOrDefault(name, 0);
      queueViews.add(
          new Overview.QueueOverview(
              name,
              sizes != null,
              sizes == null ? 0 : sizes.capacity(),
              sizes == null ? 0 : sizes.parallelism(),
              depths.getOrDefault(name, 0),
              byStatus(ofQueue),
              waiting > 0 ? waiting : null));
    }
    int throttledTasks = parkedTasks + held;
    int peerParked = peersParked(at).stream().mapToInt(ParkedSummary::tasks).sum();
    return new Overview(
        at,
        all,
        queueViews,
        throttledTasks > 0 ? throttledTasks : null,
        parkedTasks,
        peerParked,
        held,
        retention());
  }

  /** Retention's settings and this instance's last run. */
  private Overview.RetentionView retention() {
    RetentionSettings settings = retention == null ? null : retention.settings();
    if (settings == null) {
      return null;
    }
    Map<String, String> keep = new LinkedHashMap<>();
    for (TaskStatus status : TaskStatus.values()) {
      if (status.terminal()) {
        Duration age = settings.ages().get(status);
        keep.put(
            status.name(),
            age == null
                ? RetentionSettings.FOREVER
                : age.toSeconds() % 86_400 == 0 && age.getNano() == 0
                    ? "P" + age.toDays() + "D" // as set: P7D, not PT168H
                    : age.toString());
      }
    }
    Retention.Run last = retention.last();
    return new Overview.RetentionView(
        keep,
        last == null ? null : last.at(),
        last == null ? 0 : last.deleted(),
        retention.deletedTotal(),
        last == null ? null : last.error());
  }

  private static Map<String, Long> byStatus(Map<TaskStatus, Long> counts) {
    Map<String, Long> byName = new LinkedHashMap<>();
    for (TaskStatus status : TaskStatus.values()) {
      byName.put(status.name(), counts.getOrDefault(status, 0L));
    }
    return byName;
  }

  /**
   * One key's pacing; empty when the task type is not rate-limited.
   *
   * @param taskType a task type's full class name, or a simple name no other type shares
   * @param key the key as listed by {@link #rateLimits} (a longer one is hashed as the gate does)
   * @throws io.taskgate.api.UnknownTaskTypeException if {@code taskType} names no task type
   */
  public Optional<Pacing> pacing(String taskType, String key) {
    String type = admin.resolveTaskType(taskType);
    GateSpec gate = registry.find(type).flatMap(HandlerInfo::gate).orElse(null);
    String tracked = RateLimitKeys.normalize(key, rateLimits.maxKeyLength());
    if (gate == null || tracked == null) {
      return Optional.empty();
    }
    Instant at = clock.instant();
    long now = EpochNanos.of(at);
    RateLimitPolicy policy = rateLimits.scopeOf(gate, tracked).policy();
    KeySnapshot found =
        limiter.keys(
            new KeyQuery(
                Optional.of(type),
                Optional.of(tracked),
                k -> k.key().equals(tracked),
                KeyQuery.BY_SCOPE_AND_KEY,
                1),
            now);
    KeyState state =
        found.keys().isEmpty()
            ? KeyState.of(
                type,
                tracked,
                policy,
                policy.startEmpty() ? now + policy.burstToleranceNanos() : now,
                now)
            : found.keys().get(0);
    if (!found.supported()) {
      state = peeked(gate, tracked, now);
    }

    List<Instant> slots = new ArrayList<>();
    for (ParkedTask task : rateLimits.parkedTasks()) {
      if (task.key().equals(tracked) && task.scope().name().equals(type)) {
        slots.add(task.slot());
      }
    }
    slots.sort(null);
    List<Pacing.Mark> marks =
        rateLimits.pacingMarks(type, tracked).orElse(List.of()).stream()
            .map(
                m ->
                    new Pacing.Mark(
                        m.kind().name(),
                        m.at(),
                        m.slot(),
                        m.kind() == PacingMark.Kind.STARTED && m.slot() != null
                            ? Duration.between(m.slot(), m.at())
                            : null))
            .toList();
    return Optional.of(
        new Pacing(
            type,
            tracked,
            at,
            PolicyView.of(policy),
            state.throttledAt(now) ? EpochNanos.toInstant(state.nextSlotEpochNanos()) : null,
            state.availablePermits(),
            slots,
            marks));
  }

  private RestoredView restoredOf(KeyState key, long now) {
    Restored r = rateLimits.restored(key.scope(), key.key(), EpochNanos.toInstant(now));
    return r == null ? null : new RestoredView(r.at(), r.until(), r.unsaved());
  }

  private PushBackView pushBackOf(KeyState key, long nowEpochNanos) {
    PushBack last =
        rateLimits.lastPushBack(key.scope(), key.key(), EpochNanos.toInstant(nowEpochNanos));
    return last == null ? null : new PushBackView(last.at(), last.until(), last.reason());
  }
}
