package io.taskgate.engine.admin;

import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.WindowOptions;
import io.taskgate.core.throttle.JobKind;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.admin.dto.RateLimitOverrideView;
import io.taskgate.engine.admin.dto.ThrottlerChangeView;
import io.taskgate.engine.admin.dto.ThrottlerView;
import io.taskgate.engine.admin.dto.ThrottlersView;
import io.taskgate.engine.admin.dto.ThrottlingView;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.HandlerRegistry;
import io.taskgate.engine.handler.ThrottlerSpec;
import io.taskgate.engine.limiter.MethodLimits;
import io.taskgate.engine.throttle.JobThrottlerReads;
import io.taskgate.engine.throttle.RateLimitReads;
import io.taskgate.engine.throttle.ThrottleRow;
import io.taskgate.engine.throttle.ThrottlerChanges;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.store.ThrottlerRecord;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The job throttlers for the REST API and the pages: what each throttler holds, counts and keeps
 * waiting, how each task type uses them, the change log, and changes to definitions made by a named
 * user.
 */
@ApplicationScoped
public class ThrottlerAdmin {
  /** The most holders and waiting tasks listed per throttler. */
  static final int LISTED = 20;

  /** The changes listed with the throttlers. */
  static final int CHANGES = 20;

  @Inject JobThrottlerReads throttlers;
  @Inject ThrottlerChanges manager;
  @Inject Throttles throttles;
  @Inject HandlerRegistry registry;
  @Inject InstantSource clock;
  @Inject RateLimitReads rateLimits;
  @Inject TaskAdmin tasks;

  /** Every throttler, every task type's use of them, the latest changes. */
  public ThrottlersView list() {
    Instant now = clock.instant();
    Map<String, List<String>> usedBy = usedBy();
    Map<String, ThrottlerView> rows = new TreeMap<>();
    for (ThrottlerRecord record : throttlers.definitions()) {
      String resource = JobThrottlerReads.resource(record.kind(), record.id());
      rows.put(resource, view(record.kind(), record.id(), record, usedBy, now));
    }
    for (String resource : throttlers.state().holders().keySet()) {
      if (JobThrottlerReads.isJobResource(resource)) { // the grid's state holds every kind's
        rows.computeIfAbsent(resource, r -> viewOf(r, usedBy, now));
      }
    }
    for (String resource : usedBy.keySet()) {
      if (JobKind.of(kindOf(resource)).defined()) { // a mutex is listed while held
        rows.computeIfAbsent(resource, r -> viewOf(r, usedBy, now));
      }
    }
    List<RateLimitOverrideView> rates =
        rateLimits.overrides().values().stream()
            .filter(o -> !o.taskType().startsWith(MethodLimits.CHANGE_PREFIX)) // at /api/limiters
            .map(
                o ->
                    new RateLimitOverrideView(
                        o.taskType(),
                        o.key(),
                        o.permits(),
                        java.time.Duration.ofNanos(o.periodNanos()),
                        o.burst()))
            .sorted(
                Comparator.comparing(RateLimitOverrideView::taskType)
                    .thenComparing(
                        RateLimitOverrideView::key,
                        Comparator.nullsFirst(Comparator.naturalOrder())))
            .toList();
    List<ThrottlerView> all = new ArrayList<>(rows.values());
    throttles.rows().forEach(row -> all.add(view(row)));
    return new ThrottlersView(List.copyOf(all), throttling(), rates, changes(CHANGES));
  }

  /**
   * Changes the rate limit of task type {@code type} (full or unique simple name), or of its {@code
   * key}, audited as {@code by}; returns the policy its tasks now get.
   */
  public io.taskgate.engine.admin.dto.PolicyView setRateLimit(
      String type, String key, int permits, java.time.Duration period, int burst, String by) {
    return io.taskgate.engine.admin.dto.PolicyView.of(
        manager.setRateLimit(tasks.resolveTaskType(type), key, permits, period, burst, by));
  }

  /** The full class names of the task types with a {@code @RateLimit}, sorted. */
  public List<String> rateLimitedTypes() {
    return registry.all().stream()
        .filter(h -> h.gate().isPresent())
        .map(HandlerInfo::typeName)
        .sorted()
        .toList();
  }

  /** Drops the run-time rate limit of {@code type} (or its {@code key}); false if none. */
  public boolean resetRateLimit(String type, String key, String by) {
    return manager.resetRateLimit(tasks.resolveTaskType(type), key, by);
  }

  /**
   * One throttler of the kind spelled {@code kind} ({@code mutex}, {@code concurrency}, …); empty
   * if it is neither defined, held, nor named by a handler.
   */
  public Optional<ThrottlerView> find(String kind, String id) {
    return list().throttlers().stream()
        .filter(t -> t.kind().equalsIgnoreCase(kind) && t.id().equals(id))
        .findFirst();
  }

  /** Whether {@code kind} is a kind of throttle the door lists rows of ({@code concurrency}). */
  public boolean isListedKind(String kind) {
    return throttles.rows().stream().anyMatch(r -> r.kind().equalsIgnoreCase(kind));
  }

  /** {@code row} of a kind of throttle the door lists ({@link Throttles#rows}). */
  private ThrottlerView view(ThrottleRow row) {
    List<ThrottlerView.Holder> holders = new ArrayList<>();
    List<String> waiting = new ArrayList<>();
    int running = 0;
    for (ThrottleRow.Held held : row.held()) {
      running += held.tasks().size();
      if (holders.size() < LISTED) {
        holders.add(
            new ThrottlerView.Holder(held.label(), held.tasks().stream().sorted().toList()));
      }
      throttles.waiters().waiting(held.resource()).forEach(t -> waiting.add(t.toString()));
    }
    return new ThrottlerView(
        row.kind(),
        row.id(),
        true,
        row.limit(),
        null,
        null,
        null,
        null,
        null,
        running,
        holders,
        waiting.size(),
        waiting.subList(0, Math.min(LISTED, waiting.size())),
        null,
        List.of(),
        null,
        List.of(),
        row.usedBy(),
        false);
  }

  /** Defines or changes semaphore {@code id}, audited as {@code by}. */
  public ThrottlerView putSemaphore(String id, int maxCount, String by) {
    ThrottlerRecord record = manager.addOrUpdateSemaphore(id, maxCount, by);
    return view(record.kind(), record.id(), record, usedBy(), clock.instant());
  }

  /** Defines or changes window {@code id} of {@code kind}, audited as {@code by}. */
  public ThrottlerView putWindow(ThrottlerKind kind, String id, WindowOptions options, String by) {
    ThrottlerRecord record = manager.addOrUpdateWindow(kind, id, options, by);
    return view(record.kind(), record.id(), record, usedBy(), clock.instant());
  }

  /** Removes a definition, audited as {@code by}; false if there was none. */
  public boolean remove(ThrottlerKind kind, String id, String by) {
    return manager.remove(kind, id, by);
  }

  /** The latest {@code max} changes of definitions, newest first. */
  public List<ThrottlerChangeView> changes(int max) {
    return manager.changes(max).stream()
        .map(
            c ->
                new ThrottlerChangeView(
                    c.at(), c.by(), c.kind().label(), c.id(), c.before(), c.after()))
        .toList();
  }

  /** The names of the throttles the task types use ({@code mutex:order-{orderId}}), sorted. */
  public List<String> throttleNames() {
    Set<String> names = new java.util.TreeSet<>();
    for (HandlerInfo handler : registry.all()) {
      handler.throttling().ifPresent(t -> t.throttlers().forEach(spec -> names.add(spec.name())));
    }
    return List.copyOf(names);
  }

  /** What throttle {@code name} did since this instance started: acquired, waited, dropped. */
  public long[] counts(String name) {
    JobThrottlerReads.Counts c = throttlers.counts(name);
    return new long[] {c.acquired(), c.waited(), c.dropped()};
  }

  /** Tells {@code listener} how long each task waited for a throttle before it let it run. */
  public void onWaited(java.util.function.BiConsumer<String, java.time.Duration> listener) {
    throttlers.onWaited(listener);
  }

  private ThrottlerView viewOf(String resource, Map<String, List<String>> usedBy, Instant now) {
    return view(kindOf(resource), resource.substring(resource.indexOf(':') + 1), null, usedBy, now);
  }

  /** The kind of job throttler {@code resource} ({@code kind:id}) is. */
  private static ThrottlerKind kindOf(String resource) {
    return ThrottlerKind.parse(resource.substring(0, resource.indexOf(':')));
  }

  private ThrottlerView view(
      ThrottlerKind kind,
      String id,
      ThrottlerRecord record,
      Map<String, List<String>> usedBy,
      Instant now) {
    String resource = JobThrottlerReads.resource(kind, id);
    ThrottlerState state = throttlers.state();
    JobKind jobKind = JobKind.of(kind);
    boolean defined = record != null || !jobKind.defined();
    List<ThrottlerView.Holder> holders = new ArrayList<>();
    Map<String, Set<String>> held = state.holders().getOrDefault(resource, Map.of());
    held.forEach(
        (owner, tasks) -> {
          if (holders.size() < LISTED) {
            holders.add(new ThrottlerView.Holder(owner, tasks.stream().sorted().toList()));
          }
        });
    List<String> waiting = new ArrayList<>();
    for (UUID task : throttles.waiters().waiting(resource)) {
      waiting.add(task.toString());
    }
    waiting.addAll(throttlers.retrying(resource).stream().sorted().toList());
    Integer inInterval = null;
    List<ThrottlerView.BucketCount> bucketCounts = List.of();
    Instant nextOpening = null;
    List<ThrottlerView.SubWindow> subWindows = List.of();
    WindowOptions window =
        record == null || !jobKind.windowed() ? null : throttlers.window(kind, id);
    if (window != null && !jobKind.subWindows()) {
      Map<Long, Integer> buckets = state.buckets(resource, now.toEpochMilli(), window);
      bucketCounts = new ArrayList<>();
      int sum = 0;
      for (Map.Entry<Long, Integer> b : buckets.entrySet()) {
        bucketCounts.add(
            new ThrottlerView.BucketCount(Instant.ofEpochMilli(b.getKey()), b.getValue()));
        sum += b.getValue();
      }
      inInterval = sum;
      long opens = state.opensAt(resource, now.toEpochMilli(), window);
      nextOpening = opens > now.toEpochMilli() ? Instant.ofEpochMilli(opens) : null;
    } else if (window != null) {
      subWindows = new ArrayList<>();
      int sum = 0;
      for (Map.Entry<String, Integer> s :
          state.subWindows(resource, now.toEpochMilli(), window).entrySet()) {
        subWindows.add(
            new ThrottlerView.SubWindow(
                s.getKey(), s.getValue(), state.limitOf(resource, s.getKey(), window)));
        sum += s.getValue();
      }
      subWindows.sort(Comparator.comparing(ThrottlerView.SubWindow::id));
      inInterval = sum;
    }
    return new ThrottlerView(
        kind.label(),
        id,
        defined,
        jobKind.fixedLimit() > 0
            ? Integer.valueOf(jobKind.fixedLimit())
            : record == null ? null : record.limit(),
        window == null ? null : window.interval(),
        window == null ? null : window.buckets(),
        window == null || !jobKind.subWindows() ? null : window.capacity(),
        window == null || !window.isRebalanced() ? null : window.minLimit(),
        window == null || !window.isRebalanced() ? null : window.maxLimit(),
        held.size(),
        holders,
        waiting.size(),
        waiting.subList(0, Math.min(LISTED, waiting.size())),
        inInterval,
        bucketCounts,
        nextOpening,
        subWindows,
        usedBy.getOrDefault(resource, List.of()),
        record != null);
  }

  /** Throttler resource (or mutex name) to the task types naming it. */
  private Map<String, List<String>> usedBy() {
    Map<String, List<String>> used = new LinkedHashMap<>();
    for (HandlerInfo handler : registry.all()) {
      if (handler.throttling().isEmpty()) {
        continue;
      }
      for (ThrottlerSpec spec : handler.throttling().get().throttlers()) {
        String key =
            spec.resource().isDynamic()
                ? spec.name()
                : JobThrottlerReads.resource(spec.kind(), spec.resource().fill(null));
        used.computeIfAbsent(key, k -> new ArrayList<>()).add(handler.typeName());
      }
    }
    return used;
  }

  private List<ThrottlingView> throttling() {
    List<ThrottlingView> views = new ArrayList<>();
    for (HandlerInfo handler : registry.all()) {
      if (handler.throttling().isEmpty()) {
        continue;
      }
      JobThrottlerReads.Resolved resolved = throttlers.resolve(handler.throttling().get());
      for (ThrottlerSpec spec : handler.throttling().get().throttlers()) {
        JobThrottlerReads.Counts c = throttlers.counts(spec.name());
        views.add(
            new ThrottlingView(
                handler.typeName(),
                spec.name(),
                spec.mode().name(),
                resolved.action().name(),
                resolved.maxWait(),
                resolved.strict(),
                c.acquired(),
                c.waited(),
                c.dropped()));
      }
    }
    views.sort(
        Comparator.comparing(ThrottlingView::taskType).thenComparing(ThrottlingView::throttle));
    return views;
  }
}
