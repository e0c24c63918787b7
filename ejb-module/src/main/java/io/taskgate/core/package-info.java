/**
 * Taskgate's pure core: limiter algorithms, policies and decisions. Plain Java only: no {@code
 * jakarta.*}, no clock reads, no threads or locks; every time-dependent method takes the current
 * time as an argument. An architecture test keeps it so.
 */
package io.taskgate.core;
