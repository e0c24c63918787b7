/**
 * Dispatch: {@link io.taskgate.engine.dispatch.DefaultTaskDispatcher} checks a task and its options
 * ({@link io.taskgate.engine.dispatch.TaskValidation}, {@link
 * io.taskgate.engine.dispatch.DispatchLimits}), stores it and hands it to the scheduler.
 */
package io.taskgate.engine.dispatch;
