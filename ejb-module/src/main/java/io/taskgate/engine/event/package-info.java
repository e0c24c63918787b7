/**
 * What the engine reports: task transitions for observers and listeners ({@link
 * io.taskgate.engine.event.TaskTransitions}), the last two hours minute by minute ({@link
 * io.taskgate.engine.event.TaskHistory}, a ring of {@link io.taskgate.engine.event.MinuteCounts}),
 * and log lines throttled per subject ({@link io.taskgate.engine.event.LogThrottle}).
 */
package io.taskgate.engine.event;
