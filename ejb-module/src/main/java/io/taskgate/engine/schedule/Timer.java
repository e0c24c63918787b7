package io.taskgate.engine.schedule;

import io.taskgate.engine.queue.TaskQueues;
import java.util.UUID;

/**
 * A task on the timeline: waiting for {@code dueNanos} (a reading of the engine's monotonic clock),
 * then for its queue's {@code lane}; {@code seq} orders tasks due at the same time by arrival.
 */
record Timer(long dueNanos, long seq, UUID taskId, String queue, Timer.Lane lane)
    implements Comparable<Timer> {

  /** Where a task goes when it comes due. */
  enum Lane {
    /** Its queue's channel ({@link TaskQueues#enqueue}). */
    QUEUE,
    /**
     * A parked task at its rate-limit slot: its queue's due lane ({@link TaskQueues#enqueueDue}).
     */
    DUE,
    /**
     * A task claimed ahead, at its slot: its queue's start lane ({@link TaskQueues#enqueueStart}).
     */
    START
  }

  @Override
  public int compareTo(Timer other) {
    int byDue = Long.compare(dueNanos, other.dueNanos);
    return byDue != 0 ? byDue : Long.compare(seq, other.seq);
  }
}
