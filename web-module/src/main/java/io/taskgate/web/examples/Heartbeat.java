package io.taskgate.web.examples;

import io.taskgate.api.Task;

/** A recurring no-op that shows the engine is alive (every 30 s, scheduled at start). */
public record Heartbeat() implements Task {}
