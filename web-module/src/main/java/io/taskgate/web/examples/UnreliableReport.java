package io.taskgate.web.examples;

import io.taskgate.api.Task;

/** A report whose generation fails twice before it succeeds: shows retries. */
public record UnreliableReport(String name) implements Task {}
