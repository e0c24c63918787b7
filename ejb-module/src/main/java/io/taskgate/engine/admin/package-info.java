/**
 * The facades the web module uses, and the only part of the engine it may reach (its
 * WebArchitectureTest holds this): {@link io.taskgate.engine.admin.TaskAdmin} (dispatch by type
 * name, list, show, cancel), {@link io.taskgate.engine.admin.ThrottleViews} (the throttled view),
 * {@link io.taskgate.engine.admin.MonitorFeed} (the monitoring stream), {@link
 * io.taskgate.engine.admin.EngineMonitor} (status, transitions, store check, periodic jobs, the
 * start signal) and {@link io.taskgate.engine.admin.TaskgateInfo}; their records are in {@code
 * dto}.
 */
package io.taskgate.engine.admin;
