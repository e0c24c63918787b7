package io.taskgate.api;

/**
 * A unit of background work: usually a record holding what the handler needs. Taskgate stores it as
 * JSON (JSON-B), so its components must be JSON-B serializable.
 */
public interface Task {}
