package io.taskgate.engine.event;

import io.taskgate.engine.event.MinuteCounts.Count;
import java.time.Instant;

/**
 * One more {@code count} on the series ({@code queue}, {@code type}) at {@code at}: what the {@link
 * TaskHistory} counts. A {@code @RateLimited} limiter's series has the queue {@link
 * TaskHistory#LIMITER} and the limiter's name as its type.
 *
 * @param queue the task's queue, or {@link TaskHistory#LIMITER}
 * @param type the task type, or the limiter's name
 * @param count what happened
 * @param at when it happened: its minute is the one counted
 */
public record Counted(String queue, String type, Count count, Instant at) {

  /** A {@code @RateLimited} limiter's {@code count} at {@code at}. */
  public static Counted ofLimiter(String limiter, Count count, Instant at) {
    return new Counted(TaskHistory.LIMITER, limiter, count, at);
  }
}
