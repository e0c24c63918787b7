/**
 * The timeline: tasks due later, parked tasks and tasks claimed ahead wait here for their time,
 * then go to their queue ({@link io.taskgate.engine.schedule.TaskScheduler}); the periodic jobs
 * leave the timer threads ({@link io.taskgate.engine.schedule.OffTimer}).
 */
package io.taskgate.engine.schedule;
