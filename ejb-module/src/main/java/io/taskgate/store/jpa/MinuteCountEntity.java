package io.taskgate.store.jpa;

import io.taskgate.store.MinuteRecord;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;

/** What one instance counted in one minute for one queue and task type, or for one limiter. */
@Entity
@Table(
    name = "taskgate_minute_count",
    indexes = {@Index(name = "taskgate_minute_count_minute", columnList = "epoch_minute")})
class MinuteCountEntity {
  /** Instance, minute, type and queue, joined (a type's name holds no '|'): one row per count. */
  @Id
  @Column(name = "id", length = 700, nullable = false, updatable = false)
  private String id;

  @Column(name = "instance", length = InstanceEntity.ID_LENGTH, nullable = false, updatable = false)
  private String instance;

  @Column(name = "epoch_minute", nullable = false, updatable = false)
  private long epochMinute;

  @Column(name = "queue", length = TaskEntity.NAME_LENGTH, nullable = false, updatable = false)
  private String queue;

  @Column(name = "type", length = TaskEntity.NAME_LENGTH, nullable = false, updatable = false)
  private String type;

  @Column(name = "started", nullable = false)
  private long started;

  @Column(name = "completed", nullable = false)
  private long completed;

  @Column(name = "failed", nullable = false)
  private long failed;

  @Column(name = "parked", nullable = false)
  private long parked;

  @Column(name = "rejected_horizon", nullable = false)
  private long rejectedBeyondHorizon;

  @Column(name = "rejected_discarded", nullable = false)
  private long rejectedDiscarded;

  @Column(name = "failed_open", nullable = false)
  private long failedOpen;

  @Column(name = "throttle_waited", nullable = false)
  private long throttleWaited;

  @Column(name = "throttle_dropped", nullable = false)
  private long throttleDropped;

  @Column(name = "calls_granted", nullable = false)
  private long callsGranted;

  @Column(name = "calls_waited", nullable = false)
  private long callsWaited;

  @Column(name = "calls_refused", nullable = false)
  private long callsRefused;

  protected MinuteCountEntity() {}

  MinuteCountEntity(MinuteRecord record) {
    this.id = id(record);
    this.instance = record.instance();
    this.epochMinute = record.epochMinute();
    this.queue = record.queue();
    this.type = record.taskType();
    set(record);
  }

  static String id(MinuteRecord record) {
    return record.instance()
        + "|"
        + record.epochMinute()
        + "|"
        + record.taskType()
        + "|"
        + record.queue();
  }

  String id() {
    return id;
  }

  /** Sets the counts to the record's. */
  void set(MinuteRecord record) {
    started = record.started();
    completed = record.completed();
    failed = record.failed();
    parked = record.parked();
    rejectedBeyondHorizon = record.rejectedBeyondHorizon();
    rejectedDiscarded = record.rejectedDiscarded();
    failedOpen = record.failedOpen();
    throttleWaited = record.throttleWaited();
    throttleDropped = record.throttleDropped();
    callsGranted = record.callsGranted();
    callsWaited = record.callsWaited();
    callsRefused = record.callsRefused();
  }

  MinuteRecord toRecord() {
    return new MinuteRecord(
        instance,
        epochMinute,
        queue,
        type,
        started,
        completed,
        failed,
        parked,
        rejectedBeyondHorizon,
        rejectedDiscarded,
        failedOpen,
        throttleWaited,
        throttleDropped,
        callsGranted,
        callsWaited,
        callsRefused);
  }
}
