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
}
