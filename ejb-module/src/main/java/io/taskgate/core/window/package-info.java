/**
 * The bucketed window rule ({@link io.taskgate.core.window.WindowRule}) that the job throttlers'
 * windows ({@code core.throttle}) and the window limiters ({@code core.limiter}) both follow, each
 * over its own storage of counts. Pure Java, depending on nothing else of Taskgate.
 */
package io.taskgate.core.window;
