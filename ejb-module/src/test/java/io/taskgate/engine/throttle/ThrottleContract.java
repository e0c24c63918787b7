package io.taskgate.engine.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Throttle} must do, whatever it throttles: a test class per implementation
 * extends this and says how to make the throttle and its attempts.
 */
public abstract class ThrottleContract {
  /** A fresh throttle, its state empty. */
  protected abstract Throttle throttle();

  /** The {@code n}-th attempt, of a task of its own; several attempts may compete for a budget. */
  protected abstract ThrottledAttempt attempt(int n);

  /** The time the decisions are asked for. */
  protected abstract Instant now();

  @Test
  void itHasANameAndAPlaceInTheGlobalOrder() {
    Throttle throttle = throttle();

    assertThat(throttle.name()).isNotBlank().isEqualTo(throttle.name());
    assertThat(throttle.order()).isIn(Throttle.RESOURCES, Throttle.WINDOWS, Throttle.BUDGETS);
  }

  @Test
  void everyAttemptGetsADecisionAndOnlyARunHoldsAPermit() {
    Throttle throttle = throttle();
    boolean ran = false;
    for (int n = 0; n < 50; n++) {
      ThrottleDecision decision = throttle.acquire(attempt(n), now());
      assertThat(decision).as("attempt %d", n).isNotNull();
      if (decision instanceof ThrottleDecision.Run run) {
        ran = true;
        assertThat(run.permit()).isNotNull();
      }
    }
    assertThat(ran).as("a fresh throttle lets the first attempt run").isTrue();
  }

  /**
   * A throttle acquired before the budget spent by time gives back exactly what an attempt that did
   * not start took: the chain's all or nothing rests on it.
   */
  @Test
  void beforeTheBudgetsWhatAnAttemptThatDidNotStartTookIsGivenBackExactly() {
    Throttle throttle = throttle();
    if (throttle.order() >= Throttle.BUDGETS) {
      return; // a budget spent by time is the last of its chain: it is never given back unused
    }
    for (int n = 0; n < 50; n++) {
      ThrottleDecision decision = throttle.acquire(attempt(n), now());
      assertThat(decision).as("attempt %d", n).isInstanceOf(ThrottleDecision.Run.class);
      throttle.release(((ThrottleDecision.Run) decision).permit(), AttemptEnd.NOT_STARTED);
    }
  }

  @Test
  void aPermitGoesBackOnceAndSaysWhatItFreed() {
    ThrottleChain chain = ThrottleChain.of(List.of(throttle()));
    var admitted = (ThrottleChain.Admission.Admitted) chain.acquire(attempt(0), now());

    Set<String> freed = admitted.permits().release(AttemptEnd.COMPLETED);

    assertThat(freed).isNotNull();
    assertThat(admitted.permits().release(AttemptEnd.COMPLETED)).isEmpty();
  }

  @Test
  void concurrentAttemptsAndReleasesNeverThrow() throws Exception {
    Throttle throttle = throttle();
    ThrottleChain chain = ThrottleChain.of(List.of(throttle));
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int offset = t * 1_000;
        done.add(
            threads.submit(
                () -> {
                  for (int n = 0; n < 200; n++) {
                    var admission = chain.acquire(attempt(offset + n), now());
                    if (admission instanceof ThrottleChain.Admission.Admitted admitted) {
                      admitted.permits().release(AttemptEnd.COMPLETED);
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      threads.shutdownNow();
    }
  }
}
