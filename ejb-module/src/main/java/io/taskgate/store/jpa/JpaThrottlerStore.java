package io.taskgate.store.jpa;

import io.taskgate.api.ThrottlerKind;
import io.taskgate.store.ThrottlerChange;
import io.taskgate.store.ThrottlerRecord;
import io.taskgate.store.ThrottlerStore;
import io.taskgate.store.ThrottlerStore.RateOverride;
import jakarta.persistence.EntityManager;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * {@link ThrottlerStore} on JPA: {@code taskgate_throttler} and {@code taskgate_throttler_change}.
 */
public final class JpaThrottlerStore implements ThrottlerStore {
  private final Transactor transactor;

  public JpaThrottlerStore(Transactor transactor) {
    this.transactor = transactor;
  }

  @Override
  public List<ThrottlerRecord> definitions() {
    return Rows.list(
            transactor,
            "SELECT t FROM ThrottlerEntity t",
            ThrottlerEntity.class,
            ThrottlerEntity::toRecord)
        .stream()
        .sorted(Comparator.comparing(ThrottlerRecord::kind).thenComparing(ThrottlerRecord::id))
        .toList();
  }

  @Override
  public Optional<ThrottlerRecord> put(ThrottlerRecord record, String by, Instant now) {
    return transactor.inTransaction(
        em -> {
          ThrottlerEntity row =
              em.find(ThrottlerEntity.class, ThrottlerEntity.name(record.kind(), record.id()));
          if (row == null) {
            em.persist(new ThrottlerEntity(record, now));
            logChange(em, now, by, record.kind(), record.id(), null, record.describe());
            return Optional.empty();
          }
          ThrottlerRecord before = row.toRecord();
          if (!before.equals(record)) {
            row.update(record, now);
            logChange(
                em, now, by, record.kind(), record.id(), before.describe(), record.describe());
          }
          return Optional.of(before);
        });
  }

  @Override
  public Optional<ThrottlerRecord> remove(ThrottlerKind kind, String id, String by, Instant now) {
    return transactor.inTransaction(
        em -> {
          ThrottlerEntity row = em.find(ThrottlerEntity.class, ThrottlerEntity.name(kind, id));
          if (row == null) {
            return Optional.empty();
          }
          ThrottlerRecord before = row.toRecord();
          em.remove(row);
          logChange(em, now, by, kind, id, before.describe(), null);
          return Optional.of(before);
        });
  }

  @Override
  public List<RateOverride> rateOverrides() {
    return Rows.list(
        transactor,
        "SELECT o FROM RateOverrideEntity o",
        RateOverrideEntity.class,
        RateOverrideEntity::toOverride);
  }

  @Override
  public Optional<RateOverride> putRateOverride(RateOverride override, String by, Instant now) {
    return transactor.inTransaction(
        em -> {
          RateOverrideEntity row =
              em.find(
                  RateOverrideEntity.class,
                  RateOverrideEntity.id(override.taskType(), override.key()));
          RateOverride before = row == null ? null : row.toOverride();
          if (row == null) {
            em.persist(new RateOverrideEntity(override, now));
          } else if (!before.equals(override)) {
            row.update(override, now);
          }
          if (before == null || !before.equals(override)) {
            logChange(
                em,
                now,
                by,
                ThrottlerKind.RATE_LIMIT,
                override.auditId(),
                before == null ? null : before.describe(),
                override.describe());
          }
          return Optional.ofNullable(before);
        });
  }

  @Override
  public Optional<RateOverride> removeRateOverride(
      String taskType, String key, String by, Instant now) {
    return transactor.inTransaction(
        em -> {
          RateOverrideEntity row =
              em.find(RateOverrideEntity.class, RateOverrideEntity.id(taskType, key));
          if (row == null) {
            return Optional.empty();
          }
          RateOverride before = row.toOverride();
          em.remove(row);
          logChange(
              em, now, by, ThrottlerKind.RATE_LIMIT, before.auditId(), before.describe(), null);
          return Optional.of(before);
        });
  }

  @Override
  public void addCount(String resource, String sub, long bucketStart, int delta) {
    String id = WindowCountEntity.id(resource, sub, bucketStart);
    for (int attempt = 0; ; attempt++) {
      try {
        transactor.inTransaction(
            em -> {
              int updated =
                  em.createQuery(
                          "UPDATE WindowCountEntity c SET c.starts = c.starts + :delta"
                              + " WHERE c.id = :id")
                      .setParameter("delta", delta)
                      .setParameter("id", id)
                      .executeUpdate();
              if (updated == 0 && delta > 0) {
                em.persist(new WindowCountEntity(resource, sub, bucketStart, delta));
                em.flush();
              }
              return null;
            });
        return;
      } catch (RuntimeException e) {
        if (attempt > 0) {
          throw e; // another instance inserted the row meanwhile; the update then wins
        }
      }
    }
  }

  @Override
  public List<WindowCount> counts(long since) {
    return Rows.list(
            transactor,
            "SELECT c FROM WindowCountEntity c WHERE c.bucketStart >= :since"
                + " ORDER BY c.bucketStart",
            WindowCountEntity.class,
            query -> query.setParameter("since", since),
            WindowCountEntity::toCount)
        .stream()
        .filter(c -> c.count() > 0)
        .toList();
  }

  @Override
  public int dropCounts(long before) {
    return Rows.execute(
        transactor,
        "DELETE FROM WindowCountEntity c WHERE c.bucketStart < :before",
        "before",
        before);
  }

  @Override
  public List<ThrottlerChange> changes(int max) {
    return Rows.list(
        transactor,
        "SELECT c FROM ThrottlerChangeEntity c ORDER BY c.at DESC",
        ThrottlerChangeEntity.class,
        query -> query.setMaxResults(max),
        ThrottlerChangeEntity::toChange);
  }

  /**
   * Logs a change of the throttler {@code kind}/{@code id}: its description before and after (null
   * where there was, or is, none).
   */
  static void logChange(
      EntityManager em,
      Instant now,
      String by,
      ThrottlerKind kind,
      String id,
      String before,
      String after) {
    em.persist(new ThrottlerChangeEntity(new ThrottlerChange(now, by, kind, id, before, after)));
  }
}
