package io.taskgate.store.jpa;

import io.taskgate.store.InstanceRecord;
import io.taskgate.store.InstanceStore;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** {@link InstanceStore} on JPA: one row per instance in {@code taskgate_instance}. */
public final class JpaInstanceStore implements InstanceStore {
  private final Transactor transactor;

  public JpaInstanceStore(Transactor transactor) {
    this.transactor = transactor;
  }

  @Override
  public Optional<InstanceRecord> beat(InstanceRecord instance, Instant now) {
    InstanceEntity.checkId(instance.id());
    InstanceRecord beating =
        new InstanceRecord(
            instance.id(),
            instance.host(),
            instance.started(),
            now,
            instance.version(),
            instance.parked(),
            instance.gridMember());
    return transactor.inTransaction(
        em -> {
          InstanceEntity row = em.find(InstanceEntity.class, instance.id());
          if (row == null) {
            em.persist(new InstanceEntity(beating));
            return Optional.empty();
          }
          InstanceRecord before = row.toRecord();
          row.update(beating);
          return Optional.of(before);
        });
  }

  @Override
  public List<InstanceRecord> instances() {
    return Rows.list(
        transactor,
        "SELECT i FROM InstanceEntity i ORDER BY i.id",
        InstanceEntity.class,
        InstanceEntity::toRecord);
  }

  @Override
  public boolean markStopped(String id) {
    return transactor.inTransaction(
        em -> {
          InstanceEntity row = em.find(InstanceEntity.class, id);
          if (row == null) {
            return false;
          }
          row.stopped();
          return true;
        });
  }

  @Override
  public boolean removeIfSilent(String id, Instant lastBeat) {
    return transactor.inTransaction(
        em ->
            em.createQuery("DELETE FROM InstanceEntity i WHERE i.id = :id AND i.lastBeat = :beat")
                    .setParameter("id", id)
                    .setParameter("beat", TaskEntity.column(lastBeat))
                    .executeUpdate()
                > 0);
  }
}
