package io.taskgate.store.jpa;

import io.taskgate.store.InstanceRecord;
import io.taskgate.store.ParkedSummary;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Lob;
import jakarta.persistence.Table;
import java.time.Instant;
import java.time.OffsetDateTime;

/** The row of one engine instance and its heartbeat. */
@Entity
@Table(name = "taskgate_instance")
class InstanceEntity {
  static final int ID_LENGTH = 64;

  @Id
  @Column(name = "id", length = ID_LENGTH, nullable = false, updatable = false)
  private String id;

  @Column(name = "host", length = TaskEntity.NAME_LENGTH, nullable = false)
  private String host;

  @Column(name = "started_at", columnDefinition = TaskEntity.TIMESTAMP, nullable = false)
  private OffsetDateTime startedAt;

  @Column(name = "last_beat", columnDefinition = TaskEntity.TIMESTAMP, nullable = false)
  private OffsetDateTime lastBeat;

  @Column(name = "version", length = ID_LENGTH, nullable = false)
  private String version;

  /** {@link ParkedSummary#encode}; null in rows from before it existed. */
  @Lob
  @Column(name = "parked")
  private String parked;

  /** {@link InstanceRecord#gridMember}. */
  @Column(name = "grid_member", length = ID_LENGTH)
  private String gridMember;

  protected InstanceEntity() {}

  /**
   * Refuses an instance id the {@code id} column cannot hold: blank, or over {@link #ID_LENGTH}.
   */
  static void checkId(String id) {
    if (id.isBlank() || id.length() > ID_LENGTH) {
      throw new IllegalArgumentException(
          "an instance id must be 1 to " + ID_LENGTH + " characters, was '" + id + "'");
    }
  }

  InstanceEntity(InstanceRecord instance) {
    id = instance.id();
    update(instance);
  }

  /** Takes the record's start, host, version and last beat (if later than the stored one). */
  void update(InstanceRecord instance) {
    startedAt = TaskEntity.column(instance.started());
    host = instance.host();
    version = instance.version();
    gridMember = instance.gridMember();
    String summary = instance.parked().encode();
    if (!summary.equals(parked)) {
      parked = summary;
    }
    OffsetDateTime beat = TaskEntity.column(instance.lastBeat());
    if (lastBeat == null || beat.isAfter(lastBeat)) {
      lastBeat = beat;
    }
  }

  /** A clean stop: the last beat goes back to the epoch, so every peer sees the instance dead. */
  void stopped() {
    lastBeat = TaskEntity.column(Instant.EPOCH);
  }

  InstanceRecord toRecord() {
    ParkedSummary summary;
    try {
      summary = ParkedSummary.decode(parked);
    } catch (IllegalArgumentException e) {
      summary = ParkedSummary.NONE; // written by another version: its peers see nothing parked
    }
    return new InstanceRecord(
        id, host, startedAt.toInstant(), lastBeat.toInstant(), version, summary, gridMember);
  }
}
