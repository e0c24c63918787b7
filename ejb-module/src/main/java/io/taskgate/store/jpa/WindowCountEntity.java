package io.taskgate.store.jpa;

import io.taskgate.store.ThrottlerStore.WindowCount;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Index;
import jakarta.persistence.Table;

/** The starts of one window (or dynamic sub-window) counted in one bucket. */
@Entity
@Table(
    name = "taskgate_window_count",
    indexes = {@Index(name = "taskgate_window_count_bucket", columnList = "bucket_start")})
class WindowCountEntity {
  /** resource, sub-window and bucket start, joined: one row per bucket. */
  @Id
  @Column(name = "id", length = 255, nullable = false, updatable = false)
  private String id;

  @Column(name = "resource", length = 128, nullable = false, updatable = false)
  private String resource;

  @Column(name = "sub_window", length = 100, updatable = false)
  private String sub;

  @Column(name = "bucket_start", nullable = false, updatable = false)
  private long bucketStart;

  @Column(name = "starts", nullable = false)
  private int starts;

  protected WindowCountEntity() {}

  WindowCountEntity(String resource, String sub, long bucketStart, int count) {
    this.id = id(resource, sub, bucketStart);
    this.resource = resource;
    this.sub = sub;
    this.bucketStart = bucketStart;
    this.starts = count;
  }

  static String id(String resource, String sub, long bucketStart) {
    return resource + "|" + (sub == null ? "" : sub) + "|" + bucketStart;
  }

  WindowCount toCount() {
    return new WindowCount(resource, sub, bucketStart, starts);
  }
}
