/**
 * The life of a task in pure terms: statuses and their allowed moves, retry backoff, recurrence and
 * its occurrence math, audit levels. Plain Java; depends on nothing outside the JDK.
 */
package io.taskgate.core.task;
