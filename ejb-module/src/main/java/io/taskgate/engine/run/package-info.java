/**
 * One attempt of a task, on a worker: {@link io.taskgate.engine.run.AttemptRunner} orchestrates,
 * {@link io.taskgate.engine.run.TaskClaimer} prepares claims (through the task type's throttles),
 * {@link io.taskgate.engine.run.Refusals} decides what becomes of a task its throttles did not let
 * run, {@link io.taskgate.engine.run.ClaimsAhead} places the tasks claimed ahead of their slot,
 * {@link io.taskgate.engine.run.Wakeups} wakes the tasks waiting for a freed resource, {@link
 * io.taskgate.engine.run.AttemptExecutor} runs the handler, {@link
 * io.taskgate.engine.run.OutcomeRecorder} writes claims and outcomes, {@link
 * io.taskgate.engine.run.CommitTimeStarts} starts tasks while a commit waits, {@link
 * io.taskgate.engine.run.RunningTasks} knows what runs here.
 */
package io.taskgate.engine.run;
