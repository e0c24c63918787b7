/**
 * Limits any call: the {@code @RateLimited} interceptor, its named limiters (a budget per key,
 * configured by annotation and MicroProfile Config, checked at deployment), the keys of calls, and
 * waiting on top of the never-waiting limiters of {@code io.taskgate.core.limiter} (a bounded,
 * ordered queue of waiters retried at the limiter's retry-after). All limiter math stays in the
 * core; time comes from the injected ticker.
 */
package io.taskgate.engine.limiter;
