package io.taskgate.store.jpa;

import io.taskgate.core.task.AuditLevel;
import io.taskgate.store.TaskStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import java.util.Arrays;
import java.util.Locale;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Produces the application's {@link TaskStore}: the JPA store on the container's transactions, at
 * the audit level configured under {@value #AUDIT_LEVEL_KEY} (default FULL).
 */
@ApplicationScoped
public class TaskStoreProducer {

  /** The MicroProfile Config key of the audit level. */
  public static final String AUDIT_LEVEL_KEY = "taskgate.audit.level";

  @Inject JtaTransactor transactor;

  @Inject
  @ConfigProperty(name = AUDIT_LEVEL_KEY, defaultValue = "FULL")
  String auditLevel;

  @Produces
  @ApplicationScoped
  TaskStore taskStore() {
    return new JpaTaskStore(transactor, parseAuditLevel(auditLevel));
  }

  /** The audit level {@code text} names, in any case; a clear error naming the key otherwise. */
  static AuditLevel parseAuditLevel(String text) {
    String name = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
    for (AuditLevel level : AuditLevel.values()) {
      if (level.name().equals(name)) {
        return level;
      }
    }
    throw new IllegalArgumentException(
        "Configuration "
            + AUDIT_LEVEL_KEY
            + " must be one of "
            + Arrays.toString(AuditLevel.values())
            + ", was '"
            + text
            + "'");
  }
}
