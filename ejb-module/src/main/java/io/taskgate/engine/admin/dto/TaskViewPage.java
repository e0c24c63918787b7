package io.taskgate.engine.admin.dto;

import java.util.List;

/**
 * One page of tasks, newest first.
 *
 * @param items the tasks on this page (without history)
 * @param page the page, from 0
 * @param size the page size asked for
 * @param total how many tasks match in all
 */
public record TaskViewPage(List<TaskView> items, int page, int size, long total) {}
