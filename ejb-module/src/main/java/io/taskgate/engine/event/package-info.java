/**
 * What the engine reports, on one channel ({@link io.taskgate.engine.event.EngineEvents}): the
 * store's writes become task transitions and counts ({@link
 * io.taskgate.engine.event.TaskTransitions}), the throttles and limiters publish what they did, and
 * the history ({@link io.taskgate.engine.event.TaskHistory}, the last two hours minute by minute, a
 * ring of {@link io.taskgate.engine.event.MinuteCounts}), the CDI observers of the API's events and
 * the views subscribe. Also log lines throttled per subject ({@link
 * io.taskgate.engine.event.LogThrottle}).
 */
package io.taskgate.engine.event;
