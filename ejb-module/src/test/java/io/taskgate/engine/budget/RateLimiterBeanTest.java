package io.taskgate.engine.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision.Outcome;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.engine.cluster.grid.GridSettings;
import io.taskgate.engine.cluster.grid.GridState;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Local;
import jakarta.ejb.LocalBean;
import jakarta.ejb.Lock;
import jakarta.ejb.Remote;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.enterprise.inject.Alternative;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RateLimiterBeanTest {
  static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");
  static final RateLimitScope ONE_PER_SECOND =
      new RateLimitScope("T", RateLimitPolicy.of(1, Duration.ofSeconds(1)));

  /** Records the periodic task instead of running it. */
  static final class RecordingTimers extends ScheduledThreadPoolExecutor {
    Runnable task;
    long delay;
    long period;
    TimeUnit unit;
    ScheduledFuture<?> future;

    RecordingTimers() {
      super(1);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(
        Runnable command, long initialDelay, long delay, TimeUnit unit) {
      this.task = command;
      this.delay = initialDelay;
      this.period = delay;
      this.unit = unit;
      this.future = super.schedule(() -> {}, 1, TimeUnit.DAYS);
      return future;
    }
  }

  final AtomicReference<Instant> now = new AtomicReference<>(T0);
  final RecordingTimers timers = new RecordingTimers();
  final RateLimiterBean bean = new RateLimiterBean();

  RateLimiterBeanTest() {
    bean.settings = GateSettings.of(new GateSettings.Values(10, 2, 256, true));
    bean.clock = now::get;
    bean.gridState = GridState.of(GridSettings.read(key -> Optional.empty()));
    bean.timers = timers;
    bean.executor = Runnable::run; // the timer hands the eviction over; here it runs at once
    bean.start();
  }

  @AfterEach
  void shutDown() {
    timers.shutdownNow();
  }

  @Test
  void theGridLimiterWithoutADataGridFailsTheStartNamingTheSetting() {
    RateLimiterBean onGrid = new RateLimiterBean();
    onGrid.settings = bean.settings;
    onGrid.clock = now::get;
    onGrid.timers = timers;
    onGrid.executor = Runnable::run;
    onGrid.gridState =
        GridState.of(
            GridSettings.read(
                key ->
                    Optional.ofNullable(Map.of("taskgate.rate-limit.limiter", "grid").get(key))));
    assertThatThrownBy(onGrid::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("taskgate.rate-limit.limiter=grid needs Payara's data grid")
        .hasMessageContaining("--nohazelcast");
  }

  @Test
  void itLimitsWithTheKeyCapOfTheSettings() {
    assertThat(bean.reserve(ONE_PER_SECOND, "a", "t1", T0).outcome()).isEqualTo(Outcome.RUN_NOW);
    assertThat(bean.reserve(ONE_PER_SECOND, "a", "t2", T0).outcome()).isEqualTo(Outcome.DEFERRED);
    assertThat(bean.peek(ONE_PER_SECOND, "a", EpochNanos.of(T0.plusSeconds(1))).outcome())
        .isEqualTo(Outcome.DEFERRED);
    assertThat(bean.reserve(ONE_PER_SECOND, "b", "t3", T0).outcome()).isEqualTo(Outcome.RUN_NOW);
    assertThat(bean.reserve(ONE_PER_SECOND, "c", "t4", T0).outcome()).isEqualTo(Outcome.UNTRACKED);
    assertThat(bean.release(ONE_PER_SECOND, "a", "t2")).isTrue();
    assertThat(bean.stats()).isEqualTo(new KeyedRateLimiter.Stats(2, 0, 1, 2));
  }

  @Test
  void idleKeysAreForgottenEveryThirtySecondsAtTheApplicationClocksTime() {
    bean.reserve(ONE_PER_SECOND, "a", null, T0);
    bean.reserve(ONE_PER_SECOND, "b", null, T0);

    assertThat(TimeUnit.NANOSECONDS.convert(timers.period, timers.unit))
        .isEqualTo(Duration.ofSeconds(30).toNanos());
    timers.task.run();
    assertThat(bean.stats().trackedKeys()).isEqualTo(2);

    now.set(T0.plusSeconds(1));
    timers.task.run();
    assertThat(bean.stats().trackedKeys()).isZero();
  }

  @Test
  void stoppingCancelsTheEviction() {
    bean.stop();

    assertThat(timers.future.isCancelled()).isTrue();
  }

  /**
   * The EJB rules make its only business interface its CDI bean type: exactly one interface, no
   * {@code @LocalBean} (which would add the class), no {@code @Local}/{@code @Remote}; and nothing
   * that serializes callers or opens transactions.
   */
  @Test
  void itIsAStartupSingletonWhoseOnlyBeanTypeIsKeyedRateLimiterAndThatNeverSerializesCallers() {
    Class<RateLimiterBean> type = RateLimiterBean.class;

    assertThat(type.getInterfaces()).containsExactly(KeyedRateLimiter.class);
    assertThat(type.isAnnotationPresent(Singleton.class)).isTrue();
    assertThat(type.isAnnotationPresent(Startup.class)).isTrue();
    assertThat(type.getAnnotation(ConcurrencyManagement.class).value())
        .isEqualTo(ConcurrencyManagementType.BEAN);
    assertThat(type.getAnnotation(TransactionManagement.class).value())
        .isEqualTo(TransactionManagementType.BEAN);
    assertThat(type.isAnnotationPresent(LocalBean.class)).isFalse();
    assertThat(type.isAnnotationPresent(Local.class)).isFalse();
    assertThat(type.isAnnotationPresent(Remote.class)).isFalse();
    assertThat(type.isAnnotationPresent(Alternative.class)).isFalse();
    assertThat(type.isAnnotationPresent(Lock.class)).isFalse();
    assertThat(type.getDeclaredMethods()).noneMatch(m -> m.isAnnotationPresent(Lock.class));
  }
}
