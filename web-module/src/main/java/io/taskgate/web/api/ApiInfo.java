package io.taskgate.web.api;

import java.time.Instant;

/** What {@code GET /api/info} answers: which Taskgate this is and whether it is up. */
public record ApiInfo(String name, String version, String status, Instant startedAt) {}
