/**
 * The engine's time, as the core sees it: {@link io.taskgate.core.time.Ticker}, the monotonic clock
 * an interval is measured with. The core never reads it; it takes times as arguments.
 */
package io.taskgate.core.time;
