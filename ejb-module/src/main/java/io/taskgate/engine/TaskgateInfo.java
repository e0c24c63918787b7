package io.taskgate.engine;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import java.time.Instant;
import java.time.InstantSource;

/** Facts about this running Taskgate application, recorded once when the application starts. */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class TaskgateInfo {

  private volatile Instant startedAt;

  @PostConstruct
  void recordStart() {
    // Runs once at deployment; the engine's injectable clock replaces this when it arrives.
    startedAt = InstantSource.system().instant();
  }

  /** When this application instance finished starting (UTC). */
  public Instant startedAt() {
    return startedAt;
  }
}
