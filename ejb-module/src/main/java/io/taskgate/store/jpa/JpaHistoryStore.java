package io.taskgate.store.jpa;

import io.taskgate.store.HistoryStore;
import io.taskgate.store.MinuteRecord;
import jakarta.persistence.TypedQuery;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** {@link HistoryStore} on JPA: one row per instance, minute, queue and task type. */
public final class JpaHistoryStore implements HistoryStore {
  private final Transactor transactor;

  public JpaHistoryStore(Transactor transactor) {
    this.transactor = transactor;
  }

  @Override
  public void save(List<MinuteRecord> records) {
    records.forEach(record -> InstanceEntity.checkId(record.instance()));
    if (records.isEmpty()) {
      return;
    }
    transactor.inTransaction(
        em -> {
          Map<String, MinuteCountEntity> rows = new HashMap<>();
          records.stream()
              .collect(Collectors.groupingBy(MinuteRecord::instance))
              .forEach(
                  (instance, of) ->
                      em.createQuery(
                              "SELECT m FROM MinuteCountEntity m WHERE m.instance = :instance"
                                  + " AND m.epochMinute BETWEEN :from AND :to",
                              MinuteCountEntity.class)
                          .setParameter("instance", instance)
                          .setParameter(
                              "from",
                              of.stream().mapToLong(MinuteRecord::epochMinute).min().getAsLong())
                          .setParameter(
                              "to",
                              of.stream().mapToLong(MinuteRecord::epochMinute).max().getAsLong())
                          .getResultList()
                          .forEach(row -> rows.put(row.id(), row)));
          for (MinuteRecord record : records) {
            MinuteCountEntity row = rows.get(MinuteCountEntity.id(record));
            if (row == null) {
              em.persist(new MinuteCountEntity(record));
            } else {
              row.set(record);
            }
          }
          return null;
        });
  }

  @Override
  public List<MinuteRecord> read(long fromMinute, long toMinute, Optional<String> instance) {
    return transactor.inTransaction(
        em -> {
          TypedQuery<MinuteCountEntity> query =
              em.createQuery(
                      "SELECT m FROM MinuteCountEntity m WHERE m.epochMinute BETWEEN :from AND :to"
                          + (instance.isPresent() ? " AND m.instance = :instance" : "")
                          + " ORDER BY m.epochMinute, m.instance, m.queue, m.type",
                      MinuteCountEntity.class)
                  .setParameter("from", fromMinute)
                  .setParameter("to", toMinute);
          instance.ifPresent(id -> query.setParameter("instance", id));
          return query.getResultList().stream().map(MinuteCountEntity::toRecord).toList();
        });
  }

  @Override
  public int deleteBefore(long epochMinute) {
    return Rows.execute(
        transactor,
        "DELETE FROM MinuteCountEntity m WHERE m.epochMinute < :before",
        "before",
        epochMinute);
  }
}
