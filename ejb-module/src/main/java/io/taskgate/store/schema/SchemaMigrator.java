package io.taskgate.store.schema;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.output.MigrateResult;
import org.flywaydb.core.api.output.ValidateResult;

/**
 * Brings the database behind a data source to the schema version this build needs, or checks that
 * it is there: Flyway's versioned migrations in {@value #LOCATIONS}{@code <database>} (H2 and
 * PostgreSQL), their history in {@value #HISTORY}, apart from any history of the application's own.
 *
 * <p>A database that has Taskgate's tables but no history was made by an earlier build's entity
 * generation, or by hand from the SQL files: if its tables have a version's shape ({@link
 * SchemaShape}, kept per version in {@value #SHAPES}{@code <database>/V<n>.txt}) it is baselined
 * there; otherwise it is brought to version 1 by {@value #REPAIR}{@code <database>/…} (tables,
 * columns and indexes it lacks) and baselined at 1 if it then has version 1's shape, or refused,
 * naming each table and column that differs. One instance at a time: on PostgreSQL a session
 * advisory lock held from the first look to the last migration, on embedded H2 (one process) a lock
 * in this class loader.
 */
public final class SchemaMigrator {
  private static final Logger LOG = Logger.getLogger(SchemaMigrator.class.getName());

  /** The MicroProfile Config key of who changes the schema ({@link SchemaMode}). */
  public static final String MIGRATE_KEY = "taskgate.schema.migrate";

  /** The MicroProfile Config key that lets this build start on a newer schema version. */
  public static final String ALLOW_NEWER_KEY = "taskgate.schema.allow-newer";

  /** Flyway's history table of Taskgate's schema versions. */
  public static final String HISTORY = "taskgate_schema_history";

  /** Where the migrations are, on the class path, followed by the database's name. */
  public static final String LOCATIONS = "db/taskgate/";

  /**
   * The key of the session advisory lock on PostgreSQL ("taskgate" in ASCII) that an instance holds
   * while it looks at and changes the schema.
   */
  public static final long LOCK_KEY = 0x7461736b67617465L;

  static final String SHAPES = "db/taskgate-shape/";
  static final String REPAIR = "db/taskgate-repair/";

  private final DataSource dataSource;
  private final ClassLoader loader;

  public SchemaMigrator(DataSource dataSource) {
    this.dataSource = dataSource;
    this.loader = SchemaMigrator.class.getClassLoader();
  }

  /** What a call did: the database, the version before and after, and in words. */
  public record Outcome(String database, String before, String after, String summary) {}

  /**
   * Migrates ({@link SchemaMode#AUTO}) or checks ({@link SchemaMode#VALIDATE}) the schema; does
   * nothing for {@link SchemaMode#NONE}. A database at a version newer than this build knows is
   * refused unless {@code allowNewer}.
   *
   * @throws SchemaException when the schema is not, and may not be made, what this build needs
   */
  public Outcome apply(SchemaMode mode, boolean allowNewer) {
    if (mode == SchemaMode.NONE) {
      return new Outcome("?", "?", "?", MIGRATE_KEY + "=none: the schema was not read");
    }
    try (Connection connection = dataSource.getConnection()) {
      String database = databaseOf(connection.getMetaData());
      String schema = connection.getSchema();
      SchemaSql.lock(connection, database);
      try {
        return mode == SchemaMode.AUTO
            ? migrate(connection, database, schema, allowNewer)
            : validate(connection, database, schema, allowNewer);
      } finally {
        SchemaSql.unlock(connection, database);
      }
    } catch (SQLException | IOException e) {
      throw new SchemaException(
          "Taskgate could not read or change its schema: " + e.getMessage(), e);
    } catch (FlywayException e) {
      throw new SchemaException(
          "Taskgate's schema migration failed (history in " + HISTORY + "): " + e.getMessage(), e);
    }
  }

  private Outcome migrate(Connection connection, String database, String schema, boolean newer)
      throws SQLException, IOException {
    String before = null; // with a history: read from it below
    if (!SchemaShape.hasTable(connection, schema, HISTORY)) {
      // without: Flyway baselines a schema that has tables (Taskgate's or the application's)
      before =
          SchemaShape.hasTable(connection, schema, "taskgate_task")
              ? recognise(connection, database, schema)
              : "0";
    }
    Flyway flyway = flyway(database, before == null ? "0" : before).baselineOnMigrate(true).load();
    MigrationInfoService info = flyway.info();
    refuseNewer(info, database, newer);
    String from = before != null ? before : version(info.current());
    MigrateResult result = flyway.migrate();
    String to = version(flyway.info().current());
    String summary =
        result.migrationsExecuted == 0
            ? "Taskgate's schema is at version " + to + " on " + name(database) + " (up to date)"
            : "Taskgate migrated its schema on "
                + name(database)
                + " from version "
                + from
                + " to "
                + to
                + " ("
                + (result.migrationsExecuted == 1
                    ? "1 migration"
                    : result.migrationsExecuted + " migrations")
                + ", history in "
                + HISTORY
                + ")";
    return new Outcome(database, from, to, summary);
  }

  /**
   * The version whose shape the history-less Taskgate tables of {@code schema} have: the newest
   * that matches exactly, or 1 after the repair script, or a {@link SchemaException} naming what
   * differs from version 1.
   */
  private String recognise(Connection connection, String database, String schema)
      throws SQLException, IOException {
    SchemaShape found = SchemaShape.read(connection, schema);
    List<String> versions = knownVersions(database);
    for (int i = versions.size() - 1; i >= 0; i--) {
      SchemaShape shape = shape(database, versions.get(i));
      if (shape != null && found.differencesFrom(shape).isEmpty()) {
        LOG.info(
            "Taskgate's tables have no history but version "
                + versions.get(i)
                + "'s shape: they are baselined there ("
                + HISTORY
                + ")");
        return versions.get(i);
      }
    }
    List<String> failures =
        SchemaSql.run(connection, loader, REPAIR + database + "/create-or-extend-to-V1.sql");
    List<String> differences =
        new ArrayList<>(SchemaShape.read(connection, schema).differencesFrom(shape(database, "1")));
    if (!differences.isEmpty() || !failures.isEmpty()) {
      differences.addAll(failures);
      throw new SchemaException(
          "Taskgate's tables in this database were made by an earlier build (no "
              + HISTORY
              + ") and differ from its schema's version 1 in a way Taskgate cannot repair: "
              + String.join("; ", differences)
              + ". Change them to version 1 ("
              + LOCATIONS
              + database
              + "/V1__baseline.sql), or move the tasks to a new database.");
    }
    LOG.info(
        "Taskgate brought the tables an earlier build made to its schema's version 1; they are"
            + " baselined there ("
            + HISTORY
            + ")");
    return "1";
  }

  private Outcome validate(Connection connection, String database, String schema, boolean newer)
      throws SQLException, IOException {
    List<String> versions = knownVersions(database);
    String latest = versions.get(versions.size() - 1);
    if (!SchemaShape.hasTable(connection, schema, HISTORY)) {
      List<String> differences =
          SchemaShape.read(connection, schema).differencesFrom(shape(database, latest));
      if (!differences.isEmpty()) {
        throw new SchemaException(
            MIGRATE_KEY
                + "=validate and the database has no "
                + HISTORY
                + " and not this build's schema (version "
                + latest
                + "): "
                + String.join("; ", differences)
                + ". "
                + whereTheFilesAre(database, versions));
      }
      return new Outcome(
          database,
          latest,
          latest,
          "Taskgate's tables have its schema's version "
              + latest
              + " on "
              + name(database)
              + " (applied without "
              + HISTORY
              + ")");
    }
    Flyway flyway = flyway(database, "0").load();
    MigrationInfoService info = flyway.info();
    refuseNewer(info, database, newer);
    MigrationInfo[] pending = info.pending();
    if (pending.length > 0) {
      throw new SchemaException(
          MIGRATE_KEY
              + "=validate and the database's schema is at version "
              + version(info.current())
              + ", this build needs "
              + latest
              + ": apply "
              + Arrays.stream(pending)
                  .map(MigrationInfo::getScript)
                  .collect(Collectors.joining(", "))
              + ". "
              + whereTheFilesAre(database, versions));
    }
    ValidateResult result = flyway.validateWithResult();
    if (!result.validationSuccessful) {
      throw new SchemaException(
          "Taskgate's schema history ("
              + HISTORY
              + ") does not match this build's migrations: "
              + result.getAllErrorMessages());
    }
    String at = version(info.current());
    return new Outcome(
        database, at, at, "Taskgate's schema is at version " + at + " on " + name(database));
  }

  /** A {@link SchemaException} unless {@code newer}, if the history holds versions unknown here. */
  private static void refuseNewer(MigrationInfoService info, String database, boolean newer) {
    List<String> future = new ArrayList<>();
    for (MigrationInfo migration : info.all()) {
      MigrationState state = migration.getState();
      if (state == MigrationState.FUTURE_SUCCESS || state == MigrationState.FUTURE_FAILED) {
        future.add(migration.getVersion() + " (" + migration.getScript() + ")");
      }
    }
    if (future.isEmpty()) {
      return;
    }
    String message =
        "The database's schema has versions this build of Taskgate does not know: "
            + String.join(", ", future)
            + " (a later build ran on it";
    if (!newer) {
      throw new SchemaException(
          message
              + "). Deploy that build, or set "
              + ALLOW_NEWER_KEY
              + "=true if its changes are known to keep this build working.");
    }
    LOG.warning(message + "); " + ALLOW_NEWER_KEY + "=true lets this build start on it");
  }

  private FluentConfiguration flyway(String database, String baselineVersion) {
    return Flyway.configure(loader)
        .dataSource(dataSource)
        .locations("classpath:" + LOCATIONS + database)
        .table(HISTORY)
        .baselineVersion(baselineVersion)
        .ignoreMigrationPatterns("*:future")
        .cleanDisabled(true);
  }

  /** The versions this build has, oldest first, from their shape files (V1.txt, V2.txt, …). */
  List<String> knownVersions(String database) throws IOException {
    List<String> versions = new ArrayList<>();
    for (int v = 1; shape(database, Integer.toString(v)) != null; v++) {
      versions.add(Integer.toString(v));
    }
    if (versions.isEmpty()) {
      throw new IOException("no " + SHAPES + database + "/V1.txt on the class path");
    }
    return versions;
  }

  private SchemaShape shape(String database, String version) throws IOException {
    return SchemaShape.load(loader, SHAPES + database + "/V" + version + ".txt");
  }

  private static String whereTheFilesAre(String database, List<String> versions) {
    return "The SQL files are "
        + LOCATIONS
        + database
        + "/V1__… to V"
        + versions.get(versions.size() - 1)
        + "__… in Taskgate's EJB jar (ejb-module/src/main/resources/"
        + LOCATIONS
        + database
        + " in its source); or set "
        + MIGRATE_KEY
        + "=auto and Taskgate applies them.";
  }

  /** "h2" or "postgresql", or a {@link SchemaException} naming the database Taskgate found. */
  static String databaseOf(DatabaseMetaData meta) throws SQLException {
    String product = meta.getDatabaseProductName();
    String lower = product.toLowerCase(Locale.ROOT);
    if (lower.contains("h2")) {
      return "h2";
    }
    if (lower.contains("postgresql")) {
      return "postgresql";
    }
    throw new SchemaException(
        "Taskgate's schema has migrations for H2 and PostgreSQL; its data source reaches "
            + product
            + " "
            + meta.getDatabaseProductVersion()
            + ". Use one of those, or set "
            + MIGRATE_KEY
            + "=none and make the tables yourself.");
  }

  private static String version(MigrationInfo info) {
    if (info == null) {
      return "0";
    }
    MigrationVersion version = info.getVersion();
    return version == null ? "0" : version.getVersion();
  }

  private static String name(String database) {
    return database.equals("h2") ? "H2" : "PostgreSQL";
  }
}
