package io.taskgate.engine.admin.dto;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The pacing of one (task type, key): what a timeline chart shows.
 *
 * @param taskType the task type's full class name
 * @param key the key as the limiter tracks it
 * @param at when the view was taken
 * @param policy the key's policy
 * @param nextSlot the slot a new task would get; null when the key has budget now
 * @param availablePermits tasks that could start at once
 * @param parkedSlots the slots of the key's parked tasks, earliest first
 * @param marks recent starts and reservations, oldest first (at most the last 200; empty when the
 *     key was not recorded: keys are recorded while few enough, and whenever they are deferred)
 */
public record Pacing(
    String taskType,
    String key,
    Instant at,
    PolicyView policy,
    Instant nextSlot,
    int availablePermits,
    List<Instant> parkedSlots,
    List<Mark> marks) {

  /**
   * One mark on the timeline.
   *
   * @param kind {@code STARTED} (a task started) or {@code RESERVED} (a task was deferred)
   * @param at when
   * @param slot the slot the started task waited for, or the slot reserved; null for a start that
   *     did not wait
   * @param lateness for a start that waited: how long after its slot it started
   */
  public record Mark(String kind, Instant at, Instant slot, Duration lateness) {}
}
