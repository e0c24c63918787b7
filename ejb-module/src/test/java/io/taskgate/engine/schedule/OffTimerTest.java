package io.taskgate.engine.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.engine.LogCapture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

class OffTimerTest {
  private final List<Runnable> handedOver = new ArrayList<>();
  private final AtomicInteger runs = new AtomicInteger();

  @Test
  void theTimerOnlyHandsTheJobOverAndSkipsWhileARunIsPending() {
    OffTimer timer = new OffTimer("sweep", handedOver::add, runs::incrementAndGet);

    timer.run();
    timer.run(); // the first run has not happened yet: skipped

    assertThat(runs).hasValue(0); // nothing ran on the calling (timer) thread
    assertThat(handedOver).hasSize(1);
    handedOver.remove(0).run();
    assertThat(runs).hasValue(1);

    timer.run(); // done: the next tick hands it over again
    assertThat(handedOver).hasSize(1);
  }

  @Test
  void aFailingRunOrARefusalDoesNotStopLaterRuns() {
    OffTimer failing =
        new OffTimer(
            "evictor",
            handedOver::add,
            () -> {
              runs.incrementAndGet();
              throw new IllegalStateException("boom");
            });
    try (LogCapture log = new LogCapture(OffTimer.class, Level.WARNING)) {
      failing.run();
      handedOver.remove(0).run();
      assertThat(log.messages(Level.WARNING))
          .containsExactly("Taskgate's evictor failed; its next run retries");
      assertThat(log.thrown(Level.WARNING))
          .extracting(Throwable::getMessage)
          .containsExactly("boom");
    }
    failing.run();
    assertThat(handedOver).hasSize(1);
    assertThat(runs).hasValue(1);

    AtomicInteger offered = new AtomicInteger();
    OffTimer refused =
        new OffTimer(
            "drain",
            job -> {
              offered.incrementAndGet();
              throw new RejectedExecutionException("shutting down");
            },
            runs::incrementAndGet);
    refused.run();
    refused.run();
    assertThat(offered).hasValue(2);
  }
}
