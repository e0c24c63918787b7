/**
 * The records the web module reads from the engine's facades: tasks ({@link
 * io.taskgate.engine.admin.dto.TaskView}, {@link io.taskgate.engine.admin.dto.TaskViewPage}), the
 * throttled view (rate-limit rows, totals, overview, a key's pacing) and monitoring events. Never a
 * stored entity.
 */
package io.taskgate.engine.admin.dto;
