package io.taskgate.api;

/**
 * CDI event: a task ran unthrottled because the limiter could not track its key (the tracked-key
 * cap {@code taskgate.rate-limit.max-tracked-keys} was reached). Always fired, whatever the
 * deferral-event setting.
 *
 * @param taskType the task type's name (the scope of the budget)
 * @param key the throttling key that was not tracked
 * @param untrackedCount how many times the limiter has failed open since the application started
 */
public record RateLimitFailOpen(String taskType, String key, long untrackedCount) {

  /**
   * One machine-parseable line: {@code Rate limit failed open: key=<key> policy=<taskType>
   * untrackedCount=<n>}.
   */
  public String message() {
    return "Rate limit failed open: key="
        + key
        + " policy="
        + taskType
        + " untrackedCount="
        + untrackedCount;
  }
}
