package io.taskgate.core.limiter;

import static io.taskgate.core.limiter.Script.ms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PartitionedLimiterTest {

  private static final Duration SECOND = Duration.ofSeconds(1);

  private static PartitionedLimiter<String> windows(int maxPartitions) {
    return new PartitionedLimiter<>(
        key -> new FixedWindowLimiter(new FixedWindowLimiterOptions(1, SECOND)), maxPartitions);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          each key has its own limit          | 10 | a:0:ok, a:0:wait1000, b:0:ok, b:500:wait500, a:1000:ok
          the cap refuses a new key           | 1  | a:0:ok, b:0:no, a:999:wait1, b:1000:ok, a:1000:no
          idle partitions make room for a new | 2  | a:0:ok, b:0:ok, c:999:no, c:1000:ok, c:1000:wait1000
          """)
  void scripts(String title, int maxPartitions, String steps) {
    var limiter = windows(maxPartitions);
    for (String step : steps.split(",")) {
      String[] t = step.trim().split(":");
      Script.expect(
          limiter.tryAcquire(t[0], 1, ms(Long.parseLong(t[1]))), t[2], title + ": " + step);
    }
    assertThat(limiter.partitionCount()).isLessThanOrEqualTo(maxPartitions);
  }

  @Test
  void capRefusalNamesTheLimit() {
    var limiter = windows(1);
    limiter.tryAcquire("a", 1, 0);

    assertThat(limiter.tryAcquire("b", 1, 0).reason())
        .hasValue("partition limit of 1 reached and none idle; no partition for key b");
  }

  @Test
  void evictIdleDropsOnlyPartitionsBackToTheirIdleState() {
    var limiter = windows(10);
    limiter.tryAcquire("a", 1, 0);
    limiter.tryAcquire("b", 1, ms(1500));

    assertThat(limiter.evictIdle(ms(999))).isZero();
    assertThat(limiter.evictIdle(ms(1999))).isEqualTo(1);
    assertThat(limiter.partitionCount()).isEqualTo(1);
    assertThat(limiter.evictIdle(ms(2000))).isEqualTo(1);
    assertThat(limiter.partitionCount()).isZero();
  }

  @Test
  void aPartitionWithOpenLeasesIsKept() {
    var limiter =
        new PartitionedLimiter<String>(
            key -> new ConcurrencyLimiter(new ConcurrencyLimiterOptions(1)), 10);
    RateLimitLease lease = limiter.tryAcquire("a", 1, 0);

    assertThat(limiter.evictIdle(ms(60_000))).isZero();
    assertThat(limiter.tryAcquire("a", 1, 0).isAcquired()).isFalse();
    lease.close();
    assertThat(limiter.evictIdle(0)).isEqualTo(1);
    assertThat(limiter.tryAcquire("a", 1, 0).isAcquired()).isTrue();
  }

  @Test
  void probeAndAvailabilityCreateNoPartition() {
    var limiter = windows(10);

    assertThat(limiter.availablePermits("a", 0)).isEqualTo(1);
    assertThat(limiter.probe("a", 1, 0).isAcquired()).isTrue();
    assertThat(limiter.partitionCount()).isZero();
  }

  @Test
  void aBadRequestLeavesNoPartitionBehind() {
    var limiter = windows(1);

    assertThatIllegalArgumentException()
        .isThrownBy(() -> limiter.tryAcquire("a", 2, 0))
        .withMessage("permits must be <= the permit limit 1 of this FixedWindowLimiter, was 2");
    assertThat(limiter.partitionCount()).isZero();
    assertThat(limiter.tryAcquire("b", 1, 0).isAcquired()).isTrue();
  }

  @Test
  void aPartitionViewChainsWithAGlobalLimit() {
    var perTenant = windows(10);
    var global = new FixedWindowLimiter(new FixedWindowLimiterOptions(2, SECOND));

    assertThat(ChainedLimiter.of(global, perTenant.partition("a")).tryAcquire(1, 0).isAcquired())
        .isTrue();
    assertThat(ChainedLimiter.of(global, perTenant.partition("a")).tryAcquire(1, 0).isAcquired())
        .isFalse();
    assertThat(ChainedLimiter.of(global, perTenant.partition("b")).tryAcquire(1, 0).isAcquired())
        .isTrue();
    assertThat(ChainedLimiter.of(global, perTenant.partition("c")).tryAcquire(1, 0).reason())
        .hasValueSatisfying(reason -> assertThat(reason).startsWith("fixed window limit reached"));
    assertThat(perTenant.partition("c").isIdle(0)).isTrue();
    assertThat(perTenant.partition("a").permitLimit()).isEqualTo(1);
  }
}
