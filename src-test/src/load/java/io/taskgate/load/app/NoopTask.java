package io.taskgate.load.app;

import io.taskgate.api.Task;

/**
 * A task that does nothing: {@code seq} is its index in run {@code run}.
 *
 * @param run the run it belongs to
 * @param seq its index in the run, from 0
 */
public record NoopTask(int run, int seq) implements Task {}
