package io.taskgate.store.schema;

import java.util.Locale;

/** Who changes Taskgate's schema: the setting {@value SchemaMigrator#MIGRATE_KEY}. */
public enum SchemaMode {
  /** Taskgate migrates the database when the store is first used, one instance at a time. */
  AUTO,
  /** Taskgate only checks that the database is at this build's version, and refuses otherwise. */
  VALIDATE,
  /** Taskgate neither reads nor changes the schema. */
  NONE;

  /** The mode named {@code value} (any case), or a {@link SchemaException} naming the setting. */
  public static SchemaMode parse(String value) {
    for (SchemaMode mode : values()) {
      if (mode.name().equalsIgnoreCase(value == null ? "" : value.strip())) {
        return mode;
      }
    }
    throw new SchemaException(
        SchemaMigrator.MIGRATE_KEY + " is \"" + value + "\": it must be auto, validate or none");
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
