/**
 * The life of a task in pure terms: statuses and their allowed moves, retry policy and backoff,
 * recurrence, cron expressions and the occurrence math, audit levels. Plain Java; depends on
 * nothing outside the JDK, and every time-dependent method takes the instants it needs.
 */
package io.taskgate.core.task;
