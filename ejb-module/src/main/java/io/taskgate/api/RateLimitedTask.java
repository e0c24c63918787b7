package io.taskgate.api;

/**
 * A task that names its own throttling key: the tenant, account or external resource whose budget
 * it spends. Tasks of a type whose handler has a rate-limit policy ({@link RateLimit} or {@link
 * Handler#rateLimitPolicy()}) are throttled per (task type, key); every other key keeps its own
 * budget.
 *
 * <p>The key is a <b>throttling</b> key, shared by many tasks; it is not the dispatch {@code
 * taskKey}, which identifies one logical task. A null or empty key means "not throttled" for that
 * task. Keys longer than {@code taskgate.rate-limit.max-key-length} (default 256) characters are
 * replaced by their SHA-256 digest. When the task type cannot carry the key, the handler can supply
 * it instead: {@link Handler#rateLimitKey(Task)}.
 */
public interface RateLimitedTask extends Task {

  /** The throttling key of this task; null or empty: this task is not throttled. */
  String rateLimitKey();

  /**
   * How many units of its key's budget this task spends (default 1): a task that sends 5 messages
   * to an API allowing 100 a minute costs 5. At least 1 and at most the policy's burst: a task
   * costing more could never run, and its dispatch is refused ({@link InvalidTaskException}, naming
   * the handler, the cost and the burst). Read at dispatch and again when the task passes the gate;
   * it should be cheap and depend only on the task.
   */
  default int rateLimitCost() {
    return 1;
  }
}
