/**
 * The engine load driver, run by the {@code load} profile and never by {@code mvn verify}: boots
 * Payara Micro with the WAR plus {@link io.taskgate.load.app} on H2 or PostgreSQL, starts runs of
 * no-op tasks over HTTP and prints their throughput and latency.
 */
package io.taskgate.load;
