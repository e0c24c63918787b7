package io.taskgate.engine.run;

import io.taskgate.api.Task;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.throttle.Permits;
import io.taskgate.store.StoredTask;
import java.time.Instant;

/**
 * A task ready to be claimed: as read, with its handler, its payload, the slot it starts at once
 * claimed ahead of it (null to start once claimed), and the permits of its throttles, given back
 * when the attempt ends.
 */
record Claim(StoredTask queued, HandlerInfo handler, Task task, Instant startAt, Permits permits) {
  /**
   * The slot a throttle held the task until before it let it run, or null ({@link
   * Permits#heldUntil}).
   */
  Instant throttledUntil() {
    return permits.heldUntil();
  }
}
