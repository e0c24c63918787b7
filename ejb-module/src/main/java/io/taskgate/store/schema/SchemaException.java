package io.taskgate.store.schema;

/**
 * Taskgate's schema is not what this build needs, and the setting {@value
 * SchemaMigrator#MIGRATE_KEY} does not let it (or it could not) change it: the message says what
 * differs and what to do.
 */
public class SchemaException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public SchemaException(String message) {
    super(message);
  }

  public SchemaException(String message, Throwable cause) {
    super(message, cause);
  }
}
