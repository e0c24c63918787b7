/**
 * The queues: one bounded channel per queue, its due and start lanes, and its workers on the
 * managed executor ({@link io.taskgate.engine.queue.TaskQueues}, {@link
 * io.taskgate.engine.queue.QueueSettings}). Depends on nothing else of the engine.
 */
package io.taskgate.engine.queue;
