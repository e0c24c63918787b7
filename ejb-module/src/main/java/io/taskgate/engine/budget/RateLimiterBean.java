package io.taskgate.engine.budget;

import com.hazelcast.core.HazelcastInstance;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.KeyQuery;
import io.taskgate.core.ratelimit.KeySnapshot;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.engine.cluster.grid.GridKeyedRateLimiter;
import io.taskgate.engine.cluster.grid.GridMaps;
import io.taskgate.engine.cluster.grid.GridMembership;
import io.taskgate.engine.cluster.grid.GridSettings;
import io.taskgate.engine.cluster.grid.GridState;
import io.taskgate.engine.schedule.OffTimer;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The application's {@link KeyedRateLimiter}: one {@link InMemoryKeyedRateLimiter} per application,
 * hosted by a singleton EJB that starts with the application. Its only business interface is {@link
 * KeyedRateLimiter}, so that is its CDI bean type: the engine injects {@code @Inject
 * KeyedRateLimiter}. The container never serializes callers (bean-managed concurrency, no container
 * transactions): the limiter is thread-safe and never blocks. Every {@link #EVICT_EVERY} it forgets
 * the keys whose budget has refilled ({@link KeyedRateLimiter#evictIdle}). Its key cap is {@code
 * taskgate.rate-limit.max-tracked-keys} ({@link GateSettings}).
 *
 * <h2>Replacing it</h2>
 *
 * An application replaces it with its own CDI bean implementing {@link KeyedRateLimiter} (a
 * distributed limiter, say), declared an alternative and enabled for the whole application:
 *
 * <pre>{@code
 * @ApplicationScoped
 * @Alternative
 * @Priority(Interceptor.Priority.APPLICATION)
 * public class GridKeyedRateLimiter implements KeyedRateLimiter { … }
 * }</pre>
 *
 * A selected alternative wins over this bean wherever {@code KeyedRateLimiter} is injected. Without
 * {@code @Alternative} and {@code @Priority} there would be two beans of the type and the
 * deployment fails as ambiguous; so does any other bean of the type, for example a class
 * implementing it in a bean archive with {@code bean-discovery-mode="all"}. In an EAR the
 * replacement must be visible to the engine's module ({@code taskgate-ejb.jar}): put it in that
 * jar's module or in the EAR's {@code lib/}, not in a WAR, whose classes the EJB jar cannot see (in
 * the WAR that Payara Micro runs, any place works). The replacement must keep the invariants
 * documented on {@link KeyedRateLimiter}; this bean still starts, idle. It may implement {@link
 * KeyedRateLimiter#keys} for the throttled view; without it the view lists only the keys with
 * parked tasks.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionManagement(TransactionManagementType.BEAN)
public class RateLimiterBean implements KeyedRateLimiter {
  private static final Logger LOG = Logger.getLogger(RateLimiterBean.class.getName());

  /** How often idle keys are forgotten. */
  public static final Duration EVICT_EVERY = Duration.ofSeconds(30);

  /** The container's default scheduled executor, which runs the eviction. */
  static final String DEFAULT_SCHEDULER = "java:comp/DefaultManagedScheduledExecutorService";

  static final String DEFAULT_EXECUTOR = "java:comp/DefaultManagedExecutorService";

  /** Where Payara binds its data grid (Hazelcast) instance. */
  static final String PAYARA_GRID = "payara/Hazelcast";

  @Inject GateSettings settings;
  @Inject InstantSource clock;
  @Inject GridState gridState;

  @Resource(lookup = DEFAULT_SCHEDULER)
  ScheduledExecutorService timers;

  @Resource(lookup = DEFAULT_EXECUTOR)
  Executor executor;

  private volatile KeyedRateLimiter limiter;
  private GridKeyedRateLimiter grid;
  private ScheduledFuture<?> evictor;

  @PostConstruct
  void start() {
    GridSettings gridSettings = gridState.settings();
    int maxKeys = settings.maxTrackedKeys();
    if (gridSettings.grid()) {
      HazelcastInstance hazelcast = payaraGrid();
      GridKeyedRateLimiter onGrid = gridLimiter(hazelcast, gridSettings, maxKeys);
      gridState.use(onGrid, membership(hazelcast), hazelcast);
      grid = onGrid;
      limiter = onGrid;
      LOG.info(
          "Taskgate keeps rate-limit budgets in the data grid (map "
              + GridKeyedRateLimiter.MAP_NAME
              + "), one budget per key across the cluster");
    } else {
      limiter = new InMemoryKeyedRateLimiter(maxKeys);
    }
    evictor =
        OffTimer.every(
            timers, "rate-limit key eviction", EVICT_EVERY, executor, this::evictIdleNow);
  }

  private static HazelcastInstance payaraGrid() {
    try {
      return InitialContext.doLookup(PAYARA_GRID);
    } catch (NamingException | RuntimeException e) {
      throw new IllegalStateException(
          "Configuration "
              + GridSettings.LIMITER
              + "=grid needs Payara's data grid, but none is running here (no "
              + PAYARA_GRID
              + " in JNDI): start Payara Micro with --clustername <name> and without"
              + " --nohazelcast, or enable the data grid of Payara Server",
          e);
    }
  }

  private static GridMembership membership(HazelcastInstance hazelcast) {
    return new GridMembership() {
      @Override
      public String self() {
        return hazelcast.getCluster().getLocalMember().getUuid().toString();
      }

      @Override
      public Set<String> members() {
        return hazelcast.getCluster().getMembers().stream()
            .map(member -> member.getUuid().toString())
            .collect(Collectors.toSet());
      }
    };
  }

  private static GridKeyedRateLimiter gridLimiter(
      HazelcastInstance hazelcast, GridSettings grid, int maxKeys) {
    return new GridKeyedRateLimiter(
        GridMaps.budgets(hazelcast, maxKeys),
        () -> hazelcast.getCluster().getMembers().size(),
        grid.gridTimeout(),
        () -> new InMemoryKeyedRateLimiter(maxKeys),
        maxKeys);
  }

  @PreDestroy
  void stop() {
    if (evictor != null) {
      evictor.cancel(false);
    }
    if (grid != null) {
      grid.close();
    }
  }

  /** Forgets idle keys as of the application clock's now. Returns how many. The timer calls it. */
  int evictIdleNow() {
    try {
      int evicted = limiter.evictIdle(EpochNanos.of(clock.instant()));
      LOG.log(Level.FINE, "Rate limiter forgot {0} idle keys", evicted);
      return evicted;
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Taskgate could not evict idle rate-limit keys; retried", e);
      return 0;
    }
  }

  @Override
  public RateLimitDecision reserve(
      RateLimitScope scope, String key, Object reservationId, long nowEpochNanos) {
    return limiter.reserve(scope, key, reservationId, nowEpochNanos);
  }

  @Override
  public RateLimitDecision reserve(
      RateLimitScope scope, String key, Object reservationId, Instant now) {
    return limiter.reserve(scope, key, reservationId, now);
  }

  @Override
  public RateLimitDecision reserve(
      RateLimitScope scope, String key, Object reservationId, long nowEpochNanos, int cost) {
    return limiter.reserve(scope, key, reservationId, nowEpochNanos, cost);
  }

  @Override
  public RateLimitDecision peek(RateLimitScope scope, String key, long nowEpochNanos, int cost) {
    return limiter.peek(scope, key, nowEpochNanos, cost);
  }

  @Override
  public RateLimitDecision peek(RateLimitScope scope, String key, long nowEpochNanos) {
    return limiter.peek(scope, key, nowEpochNanos);
  }

  @Override
  public boolean release(RateLimitScope scope, String key, Object reservationId) {
    return limiter.release(scope, key, reservationId);
  }

  @Override
  public long shift(
      RateLimitScope scope, String key, long untilEpochNanos, long nowEpochNanos, Object first) {
    return limiter.shift(scope, key, untilEpochNanos, nowEpochNanos, first);
  }

  @Override
  public boolean restore(
      RateLimitScope scope, String key, long floorEpochNanos, long nowEpochNanos) {
    return limiter.restore(scope, key, floorEpochNanos, nowEpochNanos);
  }

  @Override
  public long reservedSlot(RateLimitScope scope, String key, Object reservationId) {
    return limiter.reservedSlot(scope, key, reservationId);
  }

  @Override
  public int evictIdle(long nowEpochNanos) {
    return limiter.evictIdle(nowEpochNanos);
  }

  @Override
  public KeySnapshot keys(KeyQuery query, long nowEpochNanos) {
    return limiter.keys(query, nowEpochNanos);
  }

  @Override
  public Stats stats() {
    return limiter.stats();
  }
}
