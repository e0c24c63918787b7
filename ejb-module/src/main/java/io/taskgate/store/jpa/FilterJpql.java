package io.taskgate.store.jpa;

import static java.time.temporal.ChronoUnit.MICROS;

import io.taskgate.store.TaskFilter;
import jakarta.persistence.Query;
import java.util.List;

/** A {@link TaskFilter} as a JPQL condition over {@code TaskEntity t}, and its parameters. */
final class FilterJpql {
  private FilterJpql() {}

  /** The condition of {@code filter}, over {@code t}; {@link #bind} sets its parameters. */
  static String where(TaskFilter filter) {
    // one status as an equality: PostgreSQL then reads the index on (status, updated_at, id) in
    // order
    StringBuilder where =
        new StringBuilder(
            filter.statuses().size() == 1 ? "t.status = :statuses" : "t.status IN :statuses");
    filter.type().ifPresent(x -> where.append(" AND t.type = :type"));
    filter.queue().ifPresent(x -> where.append(" AND t.queue = :queue"));
    filter.rateKey().ifPresent(x -> where.append(" AND t.rateKey = :rateKey"));
    filter.errorContains().ifPresent(x -> where.append(" AND t.lastError LIKE :error ESCAPE '!'"));
    filter.changedBefore().ifPresent(x -> where.append(" AND t.updatedAt < :before"));
    filter.changedAfter().ifPresent(x -> where.append(" AND t.updatedAt >= :since"));
    return where.toString();
  }

  /** Sets the parameters of {@link #where} on {@code query}. */
  static void bind(TaskFilter filter, Query query) {
    query.setParameter(
        "statuses",
        filter.statuses().size() == 1
            ? filter.statuses().iterator().next()
            : List.copyOf(filter.statuses()));
    filter.type().ifPresent(x -> query.setParameter("type", x));
    filter.queue().ifPresent(x -> query.setParameter("queue", x));
    filter.rateKey().ifPresent(x -> query.setParameter("rateKey", x));
    filter
        .errorContains()
        .ifPresent(x -> query.setParameter("error", "%" + x.replaceAll("([!%_])", "!$1") + "%"));
    // the columns keep microseconds: bounds of a finer instant compare as the stored times do
    filter
        .changedBefore()
        .ifPresent(x -> query.setParameter("before", TaskEntity.column(x.truncatedTo(MICROS))));
    filter
        .changedAfter()
        .ifPresent(x -> query.setParameter("since", TaskEntity.column(x.truncatedTo(MICROS))));
  }
}
