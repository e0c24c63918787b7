package io.taskgate.engine.throttle.ratelimit;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.engine.budget.RatePolicies;
import io.taskgate.engine.cluster.Instances;
import io.taskgate.engine.cluster.grid.GridState;
import io.taskgate.engine.handler.GateSpec;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.schedule.OffTimer;
import io.taskgate.engine.throttle.Restored;
import io.taskgate.store.BudgetStore;
import io.taskgate.store.InstanceRecord;
import io.taskgate.store.SavedBudget;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Carries each rate-limited key's budget over a restart, of one instance or of a whole cluster, so
 * that a restart lets no start through that the policy would not have allowed without it.
 *
 * <p><b>Saving.</b> A key whose task started is noted ({@link #started}, no write on the task's
 * path); every {@link #SAVE_EVERY} the keys noted since the last save are written with the
 * theoretical arrival time of their starts (this instance's chain, or the grid cell's with the
 * budgets in the data grid), with this instance's mark: every start it made before the mark is
 * saved. A clean stop saves once more. At most one write a second, only while keys start.
 *
 * <p><b>Restoring</b>, before the first task runs ({@link #restore}): every saved time still ahead
 * becomes the key's floor in the limiter and in its starts' chain. Starts made after an instance's
 * mark were not saved (it was killed, or its last save failed): every key of a task that instance
 * held in progress, or whose row it changed since its mark, starts from one interval after the
 * restore with no burst, the most its unsaved starts can have spent. Those instances are this one
 * (its run before the restart) and, with the budgets in the grid, every instance with a mark that
 * is not a member of the grid now. A key with nothing saved starts as a new key ({@code
 * startEmpty}). Reservations are not carried over: their tasks reserve again.
 */
@ApplicationScoped
public class SavedBudgets {
  private static final Logger LOG = Logger.getLogger(SavedBudgets.class.getName());

  /** How often the keys that started are saved. */
  public static final Duration SAVE_EVERY = Duration.ofSeconds(1);

  /** How often saved times that have passed are deleted. */
  static final Duration PRUNE_EVERY = Duration.ofMinutes(1);

  /** At most one warning about a failed save per this long. */
  private static final Duration WARN_EVERY = Duration.ofMinutes(1);

  static final String DEFAULT_SCHEDULER = "java:comp/DefaultManagedScheduledExecutorService";
  static final String DEFAULT_EXECUTOR = "java:comp/DefaultManagedExecutorService";

  @Inject BudgetStore store;
  @Inject KeyedRateLimiter limiter;
  @Inject StartSpacingGuard spacing;
  @Inject RatePolicies policies;
  @Inject Instances instances;
  @Inject GridState grid;
  @Inject InstantSource clock;

  @Resource(lookup = DEFAULT_SCHEDULER)
  ScheduledExecutorService timers;

  @Resource(lookup = DEFAULT_EXECUTOR)
  Executor executor;

  private final Set<Map.Entry<String, String>> noted = ConcurrentHashMap.newKeySet();
  private final Map<Map.Entry<String, String>, Restored> restoredKeys = new ConcurrentHashMap<>();
  private final Object saving = new Object();
  private volatile ScheduledFuture<?> saver;
  private volatile boolean restored;
  private volatile boolean gated; // some task type has a rate limit: there is something to save
  private Instant lastPrune = Instant.MIN;
  private Instant lastWarning = Instant.MIN;

  /**
   * A gated task of {@code key} started here (its starts' chain has moved): the key is saved at the
   * next save. Never blocks.
   */
  public void started(String scope, String key) {
    noted.add(Map.entry(scope, key));
  }

  /**
   * Restores the saved budgets of {@code handlers}' keys and starts saving. Called once, before any
   * task runs; returns how many keys were restored. A failure is logged: every key then starts as a
   * new one.
   */
  public int restore(Collection<HandlerInfo> handlers) {
    Map<String, GateSpec> gates = new HashMap<>();
    for (HandlerInfo handler : handlers) {
      handler
          .gate()
          .ifPresent(
              gate -> {
                gates.put(gate.scope().name(), gate);
                gates.put(handler.typeName(), gate);
              });
    }
    int restored = 0;
    gated = !gates.isEmpty();
    if (gated) {
      try {
        restored = restore(gates, clock.instant());
      } catch (RuntimeException e) {
        LOG.log(
            Level.SEVERE,
            "Taskgate could not restore the rate-limit budgets saved before this start: every"
                + " key starts as a new one",
            e);
      }
    }
    this.restored = true;
    if (gated && timers != null) { // outside the container a test saves by hand
      saver = OffTimer.every(timers, "rate-limit budget save", SAVE_EVERY, executor, this::save);
    }
    return restored;
  }

  private int restore(Map<String, GateSpec> gates, Instant now) {
    long nowNanos = EpochNanos.of(now);
    Set<Map.Entry<String, String>> done = new LinkedHashSet<>();
    for (SavedBudget saved : store.load(nowNanos)) {
      GateSpec gate = gates.get(saved.scope());
      if (gate != null && restore(gate, saved.key(), saved.tatEpochNanos(), nowNanos, false)) {
        done.add(Map.entry(saved.scope(), saved.key()));
      }
    }
    int unsaved = 0;
    long lookBack = longestSpan(gates.values());
    Instant oldest = now.minusNanos(lookBack);
    for (Map.Entry<String, Instant> mark : unsavedSince(now).entrySet()) {
      Instant since = mark.getValue().isAfter(oldest) ? mark.getValue() : oldest;
      for (BudgetStore.TypedKey touched : store.keysTouchedSince(mark.getKey(), since)) {
        GateSpec gate = gates.get(touched.type());
        if (gate == null) {
          continue;
        }
        RateLimitPolicy policy = policies.scopeOf(gate, touched.key()).policy();
        long floor = nowNanos + policy.burstToleranceNanos() + policy.emissionIntervalNanos();
        if (restore(gate, touched.key(), floor, nowNanos, true)) {
          done.add(Map.entry(gate.scope().name(), touched.key()));
          unsaved++;
        }
      }
    }
    store.save(List.of(), instances.self(), now); // this run's starts are unsaved from now on
    if (!done.isEmpty()) {
      LOG.info(
          "Taskgate restored the rate-limit budgets of "
              + done.size()
              + " keys saved before this start"
              + (unsaved == 0
                  ? ""
                  : "; " + unsaved + " of them may have started after their last save, and wait"));
    }
    return done.size();
  }

  /**
   * Raises the key's budget to {@code floor}, in the limiter and in its starts' chain, and notes it
   * for the views ({@code unsaved}: the floor covers starts that may not have been saved).
   */
  private boolean restore(GateSpec gate, String key, long floor, long nowNanos, boolean unsaved) {
    RateLimitScope scope = policies.scopeOf(gate, key);
    boolean kept = limiter.restore(scope, key, floor, nowNanos);
    spacing.restore(scope.name(), key, floor);
    if (kept) {
      restoredKeys.merge(
          Map.entry(scope.name(), key),
          new Restored(EpochNanos.toInstant(nowNanos), EpochNanos.toInstant(floor), unsaved),
          (was, now) -> now.until().isAfter(was.until()) ? now : was);
    }
    return kept;
  }

  /**
   * How {@code key}'s budget was carried over the last restart, while its budget is not whole again
   * at {@code now}; else null.
   */
  public Restored restored(String scope, String key, Instant now) {
    Restored restored = restoredKeys.get(Map.entry(scope, key));
    return restored == null || !restored.until().isAfter(now) ? null : restored;
  }

  /**
   * The instances whose starts since their mark may be unsaved: this one's run before the restart,
   * and, with the budgets in the grid, each instance with a mark that is not a member of it now.
   */
  private Map<String, Instant> unsavedSince(Instant now) {
    Map<String, Instant> marks = store.marks();
    Map<String, Instant> unsaved = new HashMap<>();
    String self = instances.self();
    if (!spacing.inTheGrid()) {
      Instant mine = marks.get(self);
      if (mine != null) {
        unsaved.put(self, mine);
      }
      return unsaved;
    }
    Set<String> members = grid.members();
    Set<String> inTheGrid = new LinkedHashSet<>();
    for (InstanceRecord peer : instances.alivePeers(now)) {
      if (peer.gridMember() != null && members.contains(peer.gridMember())) {
        inTheGrid.add(peer.id());
      }
    }
    marks.forEach(
        (instance, mark) -> {
          if (!inTheGrid.contains(instance)) {
            unsaved.put(instance, mark);
          }
        });
    return unsaved;
  }

  /** The longest burst span (τ + T) of the gates' policies and of their stored changes. */
  private long longestSpan(Collection<GateSpec> gates) {
    long longest = 0;
    for (GateSpec gate : gates) {
      longest = Math.max(longest, span(gate.policy()));
    }
    for (var override : policies.overrides().values()) {
      GateSpec gate = null;
      for (GateSpec g : gates) {
        if (g.scope().name().equals(override.taskType())) {
          gate = g;
        }
      }
      if (gate != null) {
        longest = Math.max(longest, span(RatePolicies.apply(gate.policy(), override)));
      }
    }
    return longest;
  }

  private static long span(RateLimitPolicy policy) {
    return policy.burstToleranceNanos() + policy.emissionIntervalNanos();
  }

  /** One save: the keys noted since the last one, with this instance's mark. */
  void save() {
    if (!gated) {
      return; // no task type has a rate limit: nothing to save, nothing to prune
    }
    synchronized (saving) {
      Instant now = clock.instant();
      if (!noted.isEmpty()) {
        List<Map.Entry<String, String>> keys = new ArrayList<>(noted);
        noted.removeAll(keys); // a start noted from here on is saved next time
        try {
          store.save(budgets(keys), instances.self(), now);
        } catch (RuntimeException e) {
          noted.addAll(keys);
          warn(now, e);
        }
      }
      if (Duration.between(lastPrune, now).compareTo(PRUNE_EVERY) >= 0) {
        lastPrune = now;
        restoredKeys.values().removeIf(restored -> !restored.until().isAfter(now));
        try {
          store.prune(EpochNanos.of(now));
        } catch (RuntimeException e) {
          LOG.log(Level.FINE, "Taskgate could not delete passed rate-limit budgets", e);
        }
      }
    }
  }

  private List<SavedBudget> budgets(List<Map.Entry<String, String>> keys) {
    if (spacing.inTheGrid()) {
      return grid.startTats(keys, SAVE_EVERY);
    }
    List<SavedBudget> budgets = new ArrayList<>(keys.size());
    for (Map.Entry<String, String> key : keys) {
      long tat = spacing.observed(key.getKey(), key.getValue());
      if (tat != Long.MIN_VALUE) {
        budgets.add(new SavedBudget(key.getKey(), key.getValue(), tat));
      }
    }
    return budgets;
  }

  private void warn(Instant now, RuntimeException e) {
    if (Duration.between(lastWarning, now).compareTo(WARN_EVERY) >= 0) {
      lastWarning = now;
      LOG.log(
          Level.WARNING,
          "Taskgate could not save the rate-limit budgets of the keys that started; it tries again"
              + " every "
              + SAVE_EVERY
              + " (after a restart before it succeeds, those keys wait one interval)",
          e);
    }
  }

  /** A clean stop: saves the keys that started since the last save. */
  @PreDestroy
  void stop() {
    ScheduledFuture<?> timer = saver;
    if (timer != null) {
      timer.cancel(false);
    }
    if (restored) {
      save();
    }
  }
}
