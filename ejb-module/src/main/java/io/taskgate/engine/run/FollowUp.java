package io.taskgate.engine.run;

import java.time.Instant;

/**
 * What the scheduler does next with a task after an attempt: its queue at {@code due}, or hold it
 * on its queue when {@code due} is null; a {@code redemption} (a parked task at its rate-limit
 * slot) comes back a little before the slot, to be claimed ahead of it.
 */
record FollowUp(String queue, Instant due, boolean redemption) {
  FollowUp(String queue, Instant due) {
    this(queue, due, false);
  }
}
