package io.taskgate.engine.throttle.ratelimit;

import io.taskgate.engine.budget.GateSettings;
import java.time.Duration;

/**
 * The gate's tuned constants, in one place, each with the measurement it rests on. They are not
 * configuration (see {@link GateSettings} for that): they follow from how the timeline, the clocks
 * and the store behave, and a test can build other values to look at one of them alone.
 *
 * @param claimAheadSlack a slot this close beyond the claim-ahead lead still counts as within it (2
 *     ms): the timeline fires an early redemption by the monotonic clock, the gate reads the wall
 *     clock, and the two drift by up to a millisecond between the firing and the read
 * @param startLeadMaxLag the most a claim counts towards the {@link StartLead} (50 ms): beyond it
 *     the database is stalling, not committing the usual claim. The first claims after a boot took
 *     16–44 ms on the pacing benchmark, and the lead starts here because nothing is known yet
 * @param startLeadMin the least time ahead the gate decides for (20 ms), whatever the recent claims
 *     took. The claims of a burst are slowest when they are needed most: when thousands of a key's
 *     tasks come due together and are gated at once, the burst's claim commits among them, several
 *     ms slower than the quiet claims before it (2.8–10.6 ms later than the lag learnt, on the
 *     pacing benchmark), and every later start of the key would keep that shift. Guessing long
 *     costs an idle key's backlog this much once; its starts are on time at those slots
 * @param spacingSlack a start held back for spacing is redeemed this much after it conforms (0.2
 *     ms): the timeline fires by the monotonic clock, the spacing check reads the wall clock, and a
 *     redemption that came a few µs early would be held back once more
 */
public record GateTuning(
    Duration claimAheadSlack,
    Duration startLeadMaxLag,
    Duration startLeadMin,
    Duration spacingSlack) {

  /** The values the gate runs with. */
  public static final GateTuning DEFAULT =
      new GateTuning(
          Duration.ofMillis(2),
          Duration.ofMillis(50),
          Duration.ofMillis(20),
          Duration.ofNanos(200_000));

  /**
   * Checks that every value is there and not negative, and that the lead's least is its most at
   * most.
   */
  public GateTuning {
    for (Duration d :
        new Duration[] {claimAheadSlack, startLeadMaxLag, startLeadMin, spacingSlack}) {
      if (d == null || d.isNegative()) {
        throw new IllegalArgumentException("gate tuning values must be zero or more, was " + d);
      }
    }
    if (startLeadMin.compareTo(startLeadMaxLag) > 0) {
      throw new IllegalArgumentException(
          "startLeadMin " + startLeadMin + " is more than startLeadMaxLag " + startLeadMaxLag);
    }
  }
}
