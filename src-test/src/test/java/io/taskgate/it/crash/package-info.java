/**
 * The application {@code CrashIT} kills: a rate-limited probe task whose handler writes each start
 * to a ledger file before it works, a batch dispatch resource, and an observer that records when
 * the application finished initialising.
 */
package io.taskgate.it.crash;
