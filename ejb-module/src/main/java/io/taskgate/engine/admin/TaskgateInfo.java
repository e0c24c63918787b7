package io.taskgate.engine.admin;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.InstantSource;

/** Facts about this running Taskgate application, recorded once when the application starts. */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class TaskgateInfo {

  @Inject InstantSource clock;

  private volatile Instant startedAt;

  @PostConstruct
  void recordStart() {
    startedAt = clock.instant();
  }

  /** When this application instance finished starting (UTC). */
  public Instant startedAt() {
    return startedAt;
  }
}
