/**
 * What the engine load driver adds to the WAR it deploys on Payara Micro: a no-op task and its
 * handler, the bean that dispatches a run and records when each task started and completed, and the
 * endpoint {@code POST /api/load} that starts a run. Depends on the Taskgate API and store SPI.
 */
package io.taskgate.load.app;
