/**
 * What the engine reports: task transitions for observers and listeners ({@link
 * io.taskgate.engine.event.TaskTransitions}), and log lines throttled per subject ({@link
 * io.taskgate.engine.event.LogThrottle}).
 */
package io.taskgate.engine.event;
