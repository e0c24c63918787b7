/**
 * The job throttlers' pure state: resource-id templates ({@link
 * io.taskgate.core.throttle.ResourceTemplate}), the holders of a mutex or semaphore ({@link
 * io.taskgate.core.throttle.Holders}), the bucket counts of a fixed or sliding window ({@link
 * io.taskgate.core.throttle.WindowCounts}) and the sub-windows of a dynamic window ({@link
 * io.taskgate.core.throttle.DynamicWindowState}). Time is epoch milliseconds passed in; nothing
 * here locks: the engine guards each instance (in memory, or on the data grid's key owner).
 */
package io.taskgate.core.throttle;
