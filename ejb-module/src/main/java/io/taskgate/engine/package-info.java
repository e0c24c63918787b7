/**
 * The engine: CDI and EJB adapters that run tasks on managed executors (dispatcher, consumers,
 * gates, recovery). May depend on {@code io.taskgate.core}, the Jakarta EE and MicroProfile APIs.
 */
package io.taskgate.engine;
