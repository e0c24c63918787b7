/**
 * The clocks: {@link io.taskgate.engine.time.Clocks} produces the wall clock ({@code
 * java.time.InstantSource}) and the monotonic {@link io.taskgate.core.time.Ticker}; no other class
 * reads the system's clocks (ArchitectureTest holds this). {@link
 * io.taskgate.engine.time.CachedRead} says when a value cached from the database is read again.
 */
package io.taskgate.engine.time;
