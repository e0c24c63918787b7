/**
 * Taskgate's engine: the adapters that put the pure core to work inside a Jakarta EE container
 * (limiter hosting, dispatch, consumers, parking). May depend on the core and the Jakarta EE and
 * MicroProfile APIs.
 */
package io.taskgate.engine;
