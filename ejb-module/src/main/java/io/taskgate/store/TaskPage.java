package io.taskgate.store;

import java.util.List;

/**
 * One page of a {@link TaskQuery}.
 *
 * @param tasks the tasks on this page
 * @param total how many tasks match the query in all
 */
public record TaskPage(List<StoredTask> tasks, long total) {}
