package io.taskgate.engine.throttle.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.FixedWindow;
import io.taskgate.api.Handler;
import io.taskgate.api.Mutex;
import io.taskgate.api.RateLimit;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.SlidingWindow;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.WindowOptions;
import io.taskgate.core.ratelimit.EpochNanos;
import io.taskgate.core.ratelimit.KeyedRateLimiter;
import io.taskgate.core.ratelimit.RateLimitDecision;
import io.taskgate.core.ratelimit.RateLimitScope;
import io.taskgate.core.throttle.LocalThrottlerState;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.budget.InMemoryKeyedRateLimiter;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleChain;
import io.taskgate.engine.throttle.ThrottleChain.Admission;
import io.taskgate.engine.throttle.ThrottleDecision;
import io.taskgate.engine.throttle.ThrottledAttempt;
import io.taskgate.engine.throttle.ratelimit.GateFixture;
import io.taskgate.engine.throttle.ratelimit.RateLimitGate;
import io.taskgate.store.StoredTask;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rate-limited task type with other throttles (a window; a mutex and a window), acquired all or
 * nothing with the keyed gate as the engine chains them: when one of them does not let a task run,
 * the task holds nothing afterwards, every window count is as before, and its key's rate-limit
 * budget is as before (its next slot unchanged). Run on the local state and limiter and, in a
 * subclass, on the data grid's.
 */
class RateLimitChainContractTest {
  static final Instant T0 = FamilyFixture.T0;

  /** A call to a partner's API for one tenant's order, paced per tenant. */
  record Call(String tenant, long orderId) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return tenant;
    }
  }

  abstract static class CallHandler implements Handler<Call> {
    @Override
    public void handle(Call task, TaskContext context) {}
  }

  /** One start a second per tenant, and at most 2 starts in any 10 s for all of them. */
  @TaskHandler
  @RateLimit(permits = 1, period = "PT1S", burst = 1)
  @SlidingWindow("partner")
  static class Sliding extends CallHandler {}

  /** The same with a window fixed on the epoch's 10 s. */
  @TaskHandler
  @RateLimit(permits = 1, period = "PT1S", burst = 1)
  @FixedWindow("partner")
  static class Fixed extends CallHandler {}

  /** The same as {@link Sliding}, one task of an order at a time. */
  @TaskHandler
  @RateLimit(permits = 1, period = "PT1S", burst = 1)
  @Mutex("order-{orderId}")
  @SlidingWindow("partner")
  static class ByOrder extends CallHandler {}

  FamilyFixture family;
  KeyedRateLimiter limiter;
  RateLimitGate gate;

  /** The state the job throttlers keep theirs in: a new, empty one. */
  ThrottlerState state() {
    return new LocalThrottlerState();
  }

  /** The keyed limiter the gate spends budget in: a new, empty one. */
  KeyedRateLimiter limiter() {
    return new InMemoryKeyedRateLimiter(1_000);
  }

  /**
   * How many of tasks {@code ids} the limiter keeps a reservation for; the in-memory limiter tells
   * only how many it keeps in all, so {@code ids} must name every task that may have one.
   */
  int reservations(Class<?> handler, UUID... ids) {
    return limiter.stats().pendingReservations();
  }

  @BeforeEach
  void throttles() {
    family = new FamilyFixture();
    family.family.useState(state());
    family.manager.addOrUpdateWindow(
        ThrottlerKind.SLIDING_WINDOW,
        "partner",
        WindowOptions.sliding(2, Duration.ofSeconds(10), 10));
    family.manager.addOrUpdateWindow(
        ThrottlerKind.FIXED_WINDOW, "partner", WindowOptions.fixed(2, Duration.ofSeconds(10)));
    limiter = limiter();
    gate = GateFixture.gateOver(limiter);
  }

  static Class<?> handlerClass(String name) {
    return switch (name) {
      case "Sliding" -> Sliding.class;
      case "Fixed" -> Fixed.class;
      default -> ByOrder.class;
    };
  }

  /**
   * The chain of {@code handler}'s task type, as the engine makes it: its throttles and the gate.
   */
  ThrottleChain chain(Class<?> handler) {
    List<Throttle> throttles = new ArrayList<>(family.family.throttlesOf(handlerOf(handler)));
    throttles.add(gate);
    return ThrottleChain.of(throttles);
  }

  static HandlerInfo handlerOf(Class<?> handler) {
    return FamilyFixture.handler(handler);
  }

  static RateLimitScope scope(Class<?> handler) {
    return handlerOf(handler).gate().orElseThrow().scope();
  }

  /** A first attempt of task {@code id}, order {@code orderId} of tenant acme, due at T0. */
  static ThrottledAttempt attempt(Class<?> handler, UUID id, long orderId) {
    StoredTask task =
        StoredTask.queued(id, Call.class.getName(), "{}", "default", null, T0, null, T0);
    return new ThrottledAttempt(task, handlerOf(handler), new Call("acme", orderId));
  }

  static ThrottledAttempt attempt(Class<?> handler, long orderId) {
    return attempt(handler, UUID.randomUUID(), orderId);
  }

  String window(Class<?> handler) {
    return handler == Fixed.class ? "fixed-window:partner" : "sliding-window:partner";
  }

  Map<Long, Integer> windowCounts(Class<?> handler, Instant now) {
    ThrottlerKind kind =
        handler == Fixed.class ? ThrottlerKind.FIXED_WINDOW : ThrottlerKind.SLIDING_WINDOW;
    return family
        .family
        .state()
        .buckets(
            window(handler),
            now.toEpochMilli(),
            family.family.definitions().window(kind, "partner"));
  }

  RateLimitDecision nextSlot(Class<?> handler, Instant now) {
    return limiter.peek(scope(handler), "acme", EpochNanos.of(now));
  }

  @ParameterizedTest
  @ValueSource(strings = {"Sliding", "Fixed", "ByOrder"})
  void theGateIsAskedLastSoThatWhatItSpendsIsSpentOnATaskThatRuns(String name) {
    Class<?> handler = handlerClass(name);

    List<String> order = chain(handler).throttles().stream().map(Throttle::name).toList();

    assertThat(order).last().isEqualTo("rate-limit");
  }

  @ParameterizedTest
  @ValueSource(strings = {"Sliding", "Fixed", "ByOrder"})
  void aWindowThatRefusesCostsTheKeyNoRateLimitBudget(String name) {
    Class<?> handler = handlerClass(name);
    ThrottleChain chain = chain(handler);
    // the window's 2 starts: one at T0, one at T0 + 2 s, each within the key's pace
    admitted(chain.acquire(attempt(handler, 1), T0)).permits().release(AttemptEnd.COMPLETED);
    admitted(chain.acquire(attempt(handler, 2), T0.plusSeconds(2)))
        .permits()
        .release(AttemptEnd.COMPLETED);

    // at T0 + 5 s the key may start again, the window may not
    Instant now = T0.plusSeconds(5);
    RateLimitDecision slotBefore = nextSlot(handler, now);
    Map<Long, Integer> countsBefore = windowCounts(handler, now);
    assertThat(slotBefore.runsNow()).isTrue();
    UUID refusedId = UUID.randomUUID();

    Admission admission = chain.acquire(attempt(handler, refusedId, 3), now);

    assertThat(admission).isInstanceOf(Admission.Refused.class);
    Admission.Refused refused = (Admission.Refused) admission;
    assertThat(refused.by()).isEqualTo(window(handler));
    assertThat(refused.decision()).isEqualTo(new ThrottleDecision.RetryAt(T0.plusSeconds(10)));
    assertThat(nextSlot(handler, now)).as("the key's next slot").isEqualTo(slotBefore);
    assertThat(reservations(handler, refusedId)).isZero();
    assertThat(windowCounts(handler, now)).isEqualTo(countsBefore);
    assertThat(family.family.state().holders()).isEmpty();

    // when the window opens the task starts at once, and the key's next slot is one interval on
    // (and the gate's margin for the start, under 100 ms)
    Instant opens = T0.plusSeconds(10);
    admitted(chain.acquire(attempt(handler, refusedId, 3), opens))
        .permits()
        .release(AttemptEnd.COMPLETED);
    assertThat(nextSlot(handler, opens).slotEpochNanos() - EpochNanos.of(opens))
        .isBetween(Duration.ofSeconds(1).toNanos(), Duration.ofMillis(1_100).toNanos());
  }

  @ParameterizedTest
  @ValueSource(strings = {"Sliding", "Fixed", "ByOrder"})
  void aGateThatParksTheTaskLeavesItHoldingNothingElse(String name) {
    Class<?> handler = handlerClass(name);
    ThrottleChain chain = chain(handler);
    Admission.Admitted first = admitted(chain.acquire(attempt(handler, 1), T0));
    Map<Long, Integer> countsBefore = windowCounts(handler, T0);
    var holdersBefore = family.family.state().holders();

    // the window and the mutex would let order 2 run; the key's next slot is a second later
    Admission admission = chain.acquire(attempt(handler, 2), T0);

    assertThat(admission).isInstanceOf(Admission.Refused.class);
    assertThat(((Admission.Refused) admission).decision())
        .isInstanceOf(ThrottleDecision.ParkUntil.class);
    assertThat(windowCounts(handler, T0)).isEqualTo(countsBefore);
    assertThat(family.family.state().holders()).isEqualTo(holdersBefore);
    first.permits().release(AttemptEnd.COMPLETED);
    assertThat(family.family.state().holders()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"Sliding", "Fixed", "ByOrder"})
  void parkedTasksTheWindowHoldsBackAtTheirSlotGiveThemUpAndNeverStartTogether(String name) {
    Class<?> handler = handlerClass(name);
    ThrottleChain chain = chain(handler);
    admitted(chain.acquire(attempt(handler, 1), T0)).permits().release(AttemptEnd.COMPLETED);
    UUID first = UUID.randomUUID();
    UUID second = UUID.randomUUID();
    Instant firstSlot = parkedUntil(chain.acquire(attempt(handler, first, 2), T0));
    Instant secondSlot = parkedUntil(chain.acquire(attempt(handler, second, 3), T0));
    // another key takes the window's second start meanwhile
    StoredTask other =
        StoredTask.queued(
            UUID.randomUUID(), Call.class.getName(), "{}", "default", null, T0, null, T0);
    admitted(
            chain.acquire(
                new ThrottledAttempt(other, handlerOf(handler), new Call("globex", 9)),
                T0.plusMillis(500)))
        .permits()
        .release(AttemptEnd.COMPLETED);

    // at their slots the window holds them back: they cannot start then, and give their slots up
    for (Instant slot : List.of(firstSlot, secondSlot)) {
      UUID id = slot == firstSlot ? first : second;
      assertThat(refused(chain.acquire(attempt(handler, id, slot == firstSlot ? 2 : 3), slot)))
          .isEqualTo(new ThrottleDecision.RetryAt(T0.plusSeconds(10)));
      assertThat(reservations(handler, first, second))
          .as("its slot is given up")
          .isEqualTo(id == first ? 1 : 0);
      assertThat(nextSlot(handler, slot))
          .as("a slot that passed unused stays spent")
          .isEqualTo(
              RateLimitDecision.deferred(
                  EpochNanos.of(secondSlot.plusSeconds(1)), EpochNanos.of(slot)));
    }

    // when the window opens both ask again at once: one starts now, the other a slot later
    Instant opens = T0.plusSeconds(10);
    admitted(chain.acquire(attempt(handler, first, 2), opens))
        .permits()
        .release(AttemptEnd.COMPLETED);
    Instant next = parkedUntil(chain.acquire(attempt(handler, second, 3), opens));
    assertThat(Duration.between(opens, next))
        .isBetween(Duration.ofSeconds(1), Duration.ofMillis(1_100));
    assertThat(family.family.state().holders()).isEmpty();
  }

  /** The slot {@code admission} parked its task until. */
  static Instant parkedUntil(Admission admission) {
    ThrottleDecision decision = refused(admission);
    assertThat(decision).isInstanceOf(ThrottleDecision.ParkUntil.class);
    return ((ThrottleDecision.ParkUntil) decision).until();
  }

  static Admission.Admitted admitted(Admission admission) {
    assertThat(admission).isInstanceOf(Admission.Admitted.class);
    return (Admission.Admitted) admission;
  }

  static ThrottleDecision refused(Admission admission) {
    assertThat(admission).isInstanceOf(Admission.Refused.class);
    return ((Admission.Refused) admission).decision();
  }
}
