package io.taskgate.store.jpa;

import io.taskgate.api.PauseScope;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.store.Pause;
import io.taskgate.store.PauseStore;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * {@link PauseStore} on JPA: {@code taskgate_pause}, each change logged in {@code
 * taskgate_throttler_change} (kind {@code PAUSE}).
 */
public final class JpaPauseStore implements PauseStore {
  private static final int LOG_ID_LENGTH = 100;
  private static final int LOG_VALUE_LENGTH = 255;

  private final Transactor transactor;

  public JpaPauseStore(Transactor transactor) {
    this.transactor = transactor;
  }

  @Override
  public List<Pause> pauses() {
    return Rows.list(
            transactor, "SELECT p FROM PauseEntity p", PauseEntity.class, PauseEntity::toPause)
        .stream()
        .sorted(Comparator.comparing(Pause::scope).thenComparing(Pause::name))
        .toList();
  }

  @Override
  public Optional<Pause> pause(Pause pause) {
    String id = PauseEntity.id(pause.scope(), pause.name());
    for (int attempt = 0; ; attempt++) {
      try {
        return transactor.inTransaction(
            em -> {
              PauseEntity row = em.find(PauseEntity.class, id);
              if (row != null) {
                return Optional.of(row.toPause());
              }
              em.persist(new PauseEntity(pause));
              em.flush();
              JpaThrottlerStore.logChange(
                  em,
                  pause.at(),
                  pause.by(),
                  ThrottlerKind.PAUSE,
                  logId(pause),
                  null,
                  state(pause));
              return Optional.<Pause>empty();
            });
      } catch (RuntimeException e) {
        if (attempt > 0) {
          throw e; // another instance paused it meanwhile: the second look finds its row
        }
      }
    }
  }

  @Override
  public Optional<Pause> resume(PauseScope scope, String name, String by, Instant now) {
    return transactor.inTransaction(
        em -> {
          PauseEntity row = em.find(PauseEntity.class, PauseEntity.id(scope, name));
          if (row == null) {
            return Optional.empty();
          }
          Pause before = row.toPause();
          em.remove(row);
          JpaThrottlerStore.logChange(
              em, now, by, ThrottlerKind.PAUSE, logId(before), state(before), null);
          return Optional.of(before);
        });
  }

  private static String logId(Pause pause) {
    return cut(pause.describe(), LOG_ID_LENGTH);
  }

  /** What the change log shows of a pause: {@code paused by ops: upstream down}. */
  private static String state(Pause pause) {
    String reason = pause.reason() == null || pause.reason().isBlank() ? "" : ": " + pause.reason();
    return cut("paused by " + pause.by() + reason, LOG_VALUE_LENGTH);
  }

  private static String cut(String text, int max) {
    return text.length() > max ? text.substring(0, max - 1) + "…" : text;
  }
}
