package io.taskgate.engine.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.taskgate.api.Handler;
import io.taskgate.api.RateLimitPolicy;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.core.task.RetryPolicy;
import io.taskgate.engine.admin.dto.Pacing;
import io.taskgate.engine.admin.dto.RateLimitPage;
import io.taskgate.engine.admin.dto.RateLimitQuery;
import io.taskgate.engine.admin.dto.RateLimitRow;
import io.taskgate.engine.admin.dto.RateLimitSort;
import io.taskgate.engine.admin.dto.RateLimitTotals;
import io.taskgate.engine.budget.GateSettings;
import io.taskgate.engine.budget.InMemoryKeyedRateLimiter;
import io.taskgate.engine.cluster.Instances;
import io.taskgate.engine.handler.GateSpec;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.HandlerRegistry;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.throttle.ParkedTask;
import io.taskgate.engine.throttle.ratelimit.PacingLog;
import io.taskgate.engine.throttle.ratelimit.ParkingLot;
import io.taskgate.store.InstanceRecord;
import io.taskgate.store.ParkedSummary;
import io.taskgate.store.StoredTask;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The facade over a real in-memory limiter and pacing log; the runner's parked tasks and the
 * handler registry are given by hand (the in-container test covers them live).
 */
class ThrottleViewsTest {
  static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

  record Mail(String tenant) implements Task {}

  record Plain() implements Task {}

  static class MailHandler implements Handler<Mail> {
    @Override
    public void handle(Mail task, TaskContext context) {}
  }

  /** 5 per second, burst 5. */
  static final RateLimitScope MAIL =
      new RateLimitScope(Mail.class.getName(), RateLimitPolicy.of(5, Duration.ofSeconds(1)));

  static final HandlerInfo MAIL_HANDLER =
      new HandlerInfo(
          Mail.class,
          MailHandler.class,
          "default",
          RetryPolicy.none(),
          Optional.empty(),
          Optional.of(
              new GateSpec(MAIL, GateSpec.KeySource.TASK, GateSpec.PolicySource.ANNOTATION)));

  static final HandlerInfo PLAIN_HANDLER =
      new HandlerInfo(Plain.class, Object.class, "default", RetryPolicy.none(), Optional.empty());

  final List<ParkedTask> parked = new ArrayList<>();
  final InMemoryKeyedRateLimiter limiter = new InMemoryKeyedRateLimiter(1_000);
  final ThrottleViews views = new ThrottleViews();

  final PacingLog pacing = new PacingLog(10);

  final List<InstanceRecord> peers = new ArrayList<>();

  @BeforeEach
  void wire() {
    views.limiter = limiter;
    ParkingLot parkingLot =
        new ParkingLot() {
          @Override
          public Collection<ParkedTask> parkedTasks() {
            return parked;
          }

          @Override
          public int parkedCount() {
            return parked.size();
          }
        };
    views.queues = new TaskQueues();
    views.rateLimits =
        io.taskgate.engine.throttle.ratelimit.GateFixture.reads(
            parkingLot,
            GateSettings.of(GateSettings.Values.defaults(1000)),
            io.taskgate.engine.throttle.ratelimit.GateFixture.policies(InstantSource.fixed(NOW)),
            pacing,
            new io.taskgate.engine.throttle.ratelimit.PushBacks());
    views.registry =
        new HandlerRegistry() {
          @Override
          public Optional<HandlerInfo> find(String typeName) {
            return all().stream().filter(h -> h.typeName().equals(typeName)).findFirst();
          }

          @Override
          public Collection<HandlerInfo> all() {
            return List.of(MAIL_HANDLER, PLAIN_HANDLER);
          }
        };
    views.admin =
        new TaskAdmin() {
          @Override
          public List<String> taskTypes() {
            return List.of(Mail.class.getName(), Plain.class.getName());
          }
        };
    views.clock = InstantSource.fixed(NOW);
    views.instances =
        new Instances() {
          @Override
          public List<InstanceRecord> alivePeers(Instant now) {
            return peers;
          }
        };
  }

  /** A live peer that listed {@code keys} of Mail at its last heartbeat. */
  void peer(String id, ParkedSummary.Key... keys) {
    peers.add(new InstanceRecord(id, "h", NOW, NOW, "1", ParkedSummary.of(List.of(keys)), null));
  }

  /** Spends {@code n} reservations of {@code key} now; those beyond the burst are parked. */
  void dispatch(String key, int n) {
    for (int i = 0; i < n; i++) {
      UUID id = UUID.randomUUID();
      var decision = limiter.reserve(MAIL, key, id, NOW);
      if (decision.outcome() == io.taskgate.core.ratelimit.RateLimitDecision.Outcome.DEFERRED) {
        Instant slot = EpochNanos.toInstant(decision.slotEpochNanos());
        StoredTask task = StoredTask.queued(id, MAIL.name(), "{}", "default", null, NOW, null, NOW);
        parked.add(new ParkedTask(MAIL, key, slot, task));
        pacing.reserved(MAIL.name(), key, NOW, slot);
      }
    }
  }

  @Test
  void rowsShowParkedCountsNextSlotsAndTheTotals() {
    dispatch("calm", 2);
    dispatch("hot", 8); // 3 parked: 200, 400, 600 ms
    dispatch("<script>alert(1)</script>", 6); // 1 parked

    RateLimitPage page =
        views.rateLimits(
            new RateLimitQuery(
                Optional.empty(), Optional.empty(), false, RateLimitSort.PARKED, true, 0, 50));

    assertThat(page.total()).isEqualTo(3);
    assertThat(page.items())
        .extracting(
            RateLimitRow::key,
            RateLimitRow::parkedCount,
            RateLimitRow::throttled,
            RateLimitRow::availablePermits)
        .containsExactly(
            tuple("hot", 3, true, 0),
            tuple("<script>alert(1)</script>", 1, true, 0),
            tuple("calm", 0, false, 3));
    RateLimitRow hot = page.items().get(0);
    assertThat(hot.taskType()).isEqualTo(Mail.class.getName());
    assertThat(hot.parkedUntil()).isEqualTo(NOW.plusMillis(600));
    assertThat(hot.nextSlot()).isEqualTo(NOW.plusMillis(800));
    assertThat(page.items().get(2).nextSlot()).isNull();
    assertThat(hot.policy().permits()).isEqualTo(5);
    assertThat(hot.policy().emissionInterval()).isEqualTo(Duration.ofMillis(200));
    assertThat(hot.policy().overflow()).isEqualTo("WAIT_FOR_CAPACITY");
    assertThat(page.totals())
        .isEqualTo(new RateLimitTotals(3, 1_000, 0, 2, 4, 0, 2000, 0, 4, true));
    assertThat(page.at()).isEqualTo(NOW);
  }

  @Test
  void theParkedCountsOfLivePeersAddUpWithThisInstancesOwn() {
    dispatch("hot", 8); // 3 parked here: 200, 400, 600 ms
    peer(
        "b",
        new ParkedSummary.Key(MAIL.name(), "hot", 5, NOW.plusSeconds(2)),
        new ParkedSummary.Key(MAIL.name(), "only-on-b", 2, NOW.plusMillis(300)));
    peer("c", new ParkedSummary.Key(MAIL.name(), "hot", 1, NOW.plusMillis(100)));

    RateLimitPage page =
        views.rateLimits(
            new RateLimitQuery(
                Optional.empty(), Optional.empty(), true, RateLimitSort.PARKED, true, 0, 50));

    // this instance's own budgets: the peer's key is not one of them, its tasks are counted
    RateLimitRow hot = page.items().get(0);
    assertThat(hot.key()).isEqualTo("hot");
    assertThat(hot.parkedCount()).isEqualTo(9);
    assertThat(hot.parkedUntil()).isEqualTo(NOW.plusSeconds(2));
    assertThat(page.totals().parkedTasks()).isEqualTo(3);
    assertThat(page.totals().peerParkedTasks()).isEqualTo(8);
    assertThat(page.totals().throttledKeys()).isEqualTo(2);
  }

  @Test
  void aLimiterThatCannotListItsKeysShowsTheKeysParkedOnAnyInstance() {
    KeyedRateLimiter local = limiter;
    views.limiter = // like the grid's: it cannot list its keys
        new KeyedRateLimiter() {
          @Override
          public RateLimitDecision reserve(
              RateLimitScope scope, String key, Object reservationId, long now) {
            return local.reserve(scope, key, reservationId, now);
          }

          @Override
          public RateLimitDecision peek(RateLimitScope scope, String key, long now) {
            return local.peek(scope, key, now);
          }

          @Override
          public boolean release(RateLimitScope scope, String key, Object reservationId) {
            return local.release(scope, key, reservationId);
          }

          @Override
          public int evictIdle(long now) {
            return local.evictIdle(now);
          }

          @Override
          public Stats stats() {
            return local.stats();
          }
        };
    peer("b", new ParkedSummary.Key(MAIL.name(), "only-on-b", 2, NOW.plusMillis(300)));

    RateLimitPage page =
        views.rateLimits(
            new RateLimitQuery(
                Optional.empty(), Optional.empty(), true, RateLimitSort.KEY, false, 0, 50));

    assertThat(page.items())
        .extracting(RateLimitRow::key, RateLimitRow::parkedCount, RateLimitRow::parkedUntil)
        .containsExactly(tuple("only-on-b", 2, NOW.plusMillis(300)));
    assertThat(page.totals().keysListed()).isFalse();
  }

  @Test
  void filtersSortingAndPagesNarrowTheRows() {
    for (int i = 0; i < 12; i++) {
      dispatch(String.format("tenant-%02d", i), i < 3 ? 6 + i : 1);
    }
    dispatch("other", 1);

    RateLimitPage throttled =
        views.rateLimits(
            new RateLimitQuery(
                Optional.of("Mail"), Optional.empty(), true, RateLimitSort.NEXT_SLOT, true, 0, 2));
    assertThat(throttled.total()).isEqualTo(3);
    assertThat(throttled.items())
        .extracting(RateLimitRow::key)
        .containsExactly("tenant-02", "tenant-01");

    RateLimitPage secondPage =
        views.rateLimits(
            new RateLimitQuery(
                Optional.empty(), Optional.of("tenant-"), false, RateLimitSort.KEY, false, 2, 5));
    assertThat(secondPage.total()).isEqualTo(12);
    assertThat(secondPage.items())
        .extracting(RateLimitRow::key)
        .containsExactly("tenant-10", "tenant-11");

    RateLimitPage byKeyDescending =
        views.rateLimits(
            new RateLimitQuery(
                Optional.empty(), Optional.empty(), false, RateLimitSort.KEY, true, 0, 1));
    assertThat(byKeyDescending.items()).extracting(RateLimitRow::key).containsExactly("tenant-11");

    RateLimitPage beyond =
        views.rateLimits(
            new RateLimitQuery(
                Optional.empty(), Optional.empty(), false, RateLimitSort.KEY, false, 9, 50));
    assertThat(beyond.items()).isEmpty();
    assertThat(beyond.total()).isEqualTo(13);
  }

  @Test
  void pacingShowsReservationsStartsWithTheirLatenessAndParkedSlots() {
    dispatch("hot", 7); // 2 parked: 200 and 400 ms
    pacing.started(MAIL.name(), "hot", NOW.plusMillis(203), NOW.plusMillis(200));

    Pacing pacing = views.pacing("Mail", "hot").orElseThrow();

    assertThat(pacing.taskType()).isEqualTo(Mail.class.getName());
    assertThat(pacing.parkedSlots()).containsExactly(NOW.plusMillis(200), NOW.plusMillis(400));
    assertThat(pacing.nextSlot()).isEqualTo(NOW.plusMillis(600));
    assertThat(pacing.availablePermits()).isZero();
    assertThat(pacing.marks())
        .extracting(Pacing.Mark::kind, Pacing.Mark::slot, Pacing.Mark::lateness)
        .containsExactly(
            tuple("RESERVED", NOW.plusMillis(200), null),
            tuple("RESERVED", NOW.plusMillis(400), null),
            tuple("STARTED", NOW.plusMillis(200), Duration.ofMillis(3)));
  }

  @Test
  void anUnknownKeyHasItsWholeBudgetAndAnUngatedTypeHasNoPacing() {
    Pacing fresh = views.pacing(Mail.class.getName(), "never-seen").orElseThrow();
    assertThat(fresh.nextSlot()).isNull();
    assertThat(fresh.availablePermits()).isEqualTo(5);
    assertThat(fresh.marks()).isEmpty();
    assertThat(fresh.parkedSlots()).isEmpty();

    assertThat(views.pacing("Plain", "k")).isEmpty();
  }

  @Test
  void aKeyLongerThanTheMaximumIsLookedUpHashedAsTheGateTracksIt() {
    String longKey = "x".repeat(300);
    Pacing pacing = views.pacing("Mail", longKey).orElseThrow();
    assertThat(pacing.key()).startsWith("sha256:");
  }

  @Test
  void aQueryRefusesBadPagesNamingTheField() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                new RateLimitQuery(
                    Optional.empty(), Optional.empty(), false, RateLimitSort.KEY, false, 0, 501))
        .hasMessage("size must be from 1 to 500, was 501");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                new RateLimitQuery(
                    Optional.empty(), Optional.empty(), false, RateLimitSort.KEY, false, -1, 5))
        .hasMessage("page must not be negative, was -1");
    assertThat(RateLimitSort.parse("NEXTSLOT")).contains(RateLimitSort.NEXT_SLOT);
    assertThat(RateLimitSort.parse("slot")).isEmpty();
    assertThat(Map.of()).isEmpty();
  }
}
