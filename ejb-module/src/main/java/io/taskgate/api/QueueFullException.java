package io.taskgate.api;

import java.time.Duration;
import java.util.UUID;

/** A queue's channel stayed full for the whole dispatch wait. The task is stored and runs later. */
public class QueueFullException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public QueueFullException(String queue, int depth, Duration waited, UUID taskId) {
    super(
        "Taskgate queue '"
            + queue
            + "' is full ("
            + depth
            + " tasks waiting) and had no room within "
            + waited
            + ". Task "
            + taskId
            + " is stored and will run when the queue drains; dispatch more slowly or raise"
            + " taskgate.queue."
            + queue
            + ".capacity");
  }
}
