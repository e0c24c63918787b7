package io.taskgate.api;

import java.time.Duration;

/**
 * A limiter's limit now and what it has done since the application started (on this instance).
 *
 * @param name the limiter's name
 * @param algorithm how it counts
 * @param permits calls per period per key (at once, for a concurrency limiter)
 * @param period the period
 * @param burst calls back to back after an idle spell (a token bucket's capacity)
 * @param changed whether a run-time change ({@link ThrottlingManager#setLimiter}) applies
 * @param granted calls let through (after waiting or not)
 * @param rejected calls refused (at once, or after waiting in vain)
 * @param failedOpen calls let through untracked because the key table was full
 * @param waited calls that waited and then got their permit
 * @param waitTime the time those calls waited, in all
 * @param queued calls waiting now
 * @param keys keys tracked now
 * @param maxKeys the most keys tracked at once
 */
public record LimiterStats(
    String name,
    LimiterAlgorithm algorithm,
    int permits,
    Duration period,
    int burst,
    boolean changed,
    long granted,
    long rejected,
    long failedOpen,
    long waited,
    Duration waitTime,
    int queued,
    int keys,
    int maxKeys) {}
