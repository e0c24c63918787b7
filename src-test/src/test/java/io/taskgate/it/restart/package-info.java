/**
 * The application {@code RestartIT} stops, kills and starts again: rate-limited task types that
 * start full and start empty, whose handlers write each start to a ledger file with its key and
 * time, and a batch dispatch resource.
 */
package io.taskgate.it.restart;
