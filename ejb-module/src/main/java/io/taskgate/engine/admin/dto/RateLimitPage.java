package io.taskgate.engine.admin.dto;

import java.time.Instant;
import java.util.List;

/**
 * One page of rate-limit rows and the totals.
 *
 * @param items the rows of this page
 * @param page the page, from 0
 * @param size the page size asked for
 * @param total how many rows match in all
 * @param totals the limiter and parking lot as a whole (not only the matching rows)
 * @param at when the view was taken
 */
public record RateLimitPage(
    List<RateLimitRow> items, int page, int size, long total, RateLimitTotals totals, Instant at) {}
