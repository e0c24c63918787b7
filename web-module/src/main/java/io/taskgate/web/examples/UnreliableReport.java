package io.taskgate.web.examples;

import io.taskgate.api.Task;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * A report whose generation fails twice before it succeeds: shows retries. Its name is required and
 * at most 200 characters.
 */
public record UnreliableReport(@NotBlank @Size(max = 200) String name) implements Task {}
