package io.taskgate.core.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.ThrottlerKind;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class JobKindTest {
  @Test
  void everyKindButTheRateLimitIsAJobThrottlerWithItsTraits() {
    assertThat(Arrays.stream(ThrottlerKind.values()).filter(JobKind::isJob))
        .containsExactly(
            ThrottlerKind.MUTEX,
            ThrottlerKind.SEMAPHORE,
            ThrottlerKind.FIXED_WINDOW,
            ThrottlerKind.SLIDING_WINDOW,
            ThrottlerKind.DYNAMIC_WINDOW);
    assertThatThrownBy(() -> JobKind.of(ThrottlerKind.RATE_LIMIT))
        .hasMessage("rate-limit is not a job throttler");

    JobKind mutex = JobKind.of(ThrottlerKind.MUTEX);
    assertThat(mutex.holds()).isTrue();
    assertThat(mutex.defined()).as("created on first use").isFalse();
    assertThat(mutex.fixedLimit()).isEqualTo(1);
    JobKind semaphore = JobKind.of(ThrottlerKind.SEMAPHORE);
    assertThat(semaphore.holds() && semaphore.defined() && !semaphore.windowed()).isTrue();
    assertThat(semaphore.fixedLimit()).isZero();
    for (ThrottlerKind window :
        new ThrottlerKind[] {ThrottlerKind.FIXED_WINDOW, ThrottlerKind.SLIDING_WINDOW}) {
      JobKind kind = JobKind.of(window);
      assertThat(!kind.holds() && kind.defined() && kind.windowed() && !kind.subWindows())
          .as(window.label())
          .isTrue();
      assertThat(kind.windowPerValueElsewhere()).isTrue();
    }
    JobKind dynamic = JobKind.of(ThrottlerKind.DYNAMIC_WINDOW);
    assertThat(dynamic.windowed() && dynamic.subWindows()).isTrue();
    assertThat(dynamic.windowPerValueElsewhere()).isFalse();
  }

  @Test
  void eachKindWordsItsRefusalForTheTasksLastError() {
    Instant opens = Instant.parse("2030-01-01T00:00:02Z");

    assertThat(JobKind.of(ThrottlerKind.MUTEX).refusal("order-1", 1, null))
        .isEqualTo("mutex 'order-1' is held by another task");
    assertThat(JobKind.of(ThrottlerKind.SEMAPHORE).refusal("news", 3, null))
        .isEqualTo("semaphore 'news' has all its 3 permits held");
    assertThat(JobKind.of(ThrottlerKind.FIXED_WINDOW).refusal("github", 5, opens))
        .isEqualTo("fixed-window 'github' is full until 2030-01-01T00:00:02Z");
  }
}
