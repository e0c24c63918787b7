package io.taskgate.store.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.store.schema.SchemaMigrator;
import io.taskgate.store.schema.SchemaShape;
import io.taskgate.store.schema.UrlDataSource;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import org.eclipse.persistence.descriptors.ClassDescriptor;
import org.eclipse.persistence.internal.helper.DatabaseField;
import org.eclipse.persistence.jpa.JpaEntityManagerFactory;
import org.junit.jupiter.api.Test;

/**
 * Taskgate's schema, made three ways, is one: the migrations as the store applies them ({@link
 * SchemaMigrator}), version 1's script run by hand, and (for version 1, which was captured from it)
 * what EclipseLink's {@code create-or-extend-tables} makes of the entities; and it is the shape
 * kept for the version ({@code db/taskgate-shape/<database>/V<n>.txt}), by which a database without
 * history is recognised. Every column an entity maps is made by the migrations. Compared through
 * the JDBC metadata ({@link SchemaShape}: tables, columns with type, size, nullability, default and
 * order, primary keys, indexes) on H2 and on PostgreSQL. PostgreSQL must be running (./test starts
 * it); this class fails without it, it does not skip.
 *
 * <p>{@code -Dtaskgate.schema.write-shapes=true} writes the latest version's shape files from the
 * migrations (after adding a migration), before comparing.
 */
class SchemaTest {
  private static final String LATEST = "6";

  @Test
  void onH2TheMigrationsTheScriptAndTheEntitiesMakeTheKeptShape() throws Exception {
    String migrated = h2("migrated");
    String script = h2("script");
    String entities = h2("entities");
    UrlDataSource.migrate(migrated, "sa");
    generate(entities, "sa", "org.h2.Driver");
    try (Connection m = DriverManager.getConnection(migrated, "sa", "");
        Connection s = DriverManager.getConnection(script, "sa", "");
        Connection e = DriverManager.getConnection(entities, "sa", "")) {
      run(s, "h2");
      SchemaShape shape = SchemaShape.read(m, "PUBLIC");
      writeIfAsked("h2", shape);
      assertThat(shape.tables()).hasSize(12);
      assertThat(shape.text()).isEqualTo(kept("h2").text());
      assertThat(SchemaShape.read(s, "PUBLIC")).isEqualTo(shape);
      assertSameButForColumnPositions(SchemaShape.read(e, "PUBLIC"), shape);
    }
  }

  @Test
  void onPostgresqlTheMigrationsTheScriptAndTheEntitiesMakeTheKeptShape() throws Exception {
    String migrated = "taskgate_migrated_" + unique();
    String script = "taskgate_script_" + unique();
    String entities = "taskgate_entities_" + unique();
    String server = PostgresTaskStoreTest.SERVER;
    String user = PostgresTaskStoreTest.USER;
    PostgresTaskStoreTest.execute("CREATE SCHEMA " + migrated);
    PostgresTaskStoreTest.execute("CREATE SCHEMA " + script);
    PostgresTaskStoreTest.execute("CREATE SCHEMA " + entities);
    try {
      UrlDataSource.migrate(server + "?currentSchema=" + migrated, user);
      generate(server + "?currentSchema=" + entities, user, "org.postgresql.Driver");
      try (Connection c = DriverManager.getConnection(server, user, "");
          Connection s =
              DriverManager.getConnection(server + "?currentSchema=" + script, user, "")) {
        run(s, "postgresql");
        SchemaShape shape = SchemaShape.read(c, migrated);
        writeIfAsked("postgresql", shape);
        assertThat(shape.tables()).hasSize(12);
        assertThat(shape.text()).isEqualTo(kept("postgresql").text());
        assertThat(SchemaShape.read(c, script)).isEqualTo(shape);
        assertSameButForColumnPositions(SchemaShape.read(c, entities), shape);
      }
    } finally {
      PostgresTaskStoreTest.execute("DROP SCHEMA " + migrated + " CASCADE");
      PostgresTaskStoreTest.execute("DROP SCHEMA " + script + " CASCADE");
      PostgresTaskStoreTest.execute("DROP SCHEMA " + entities + " CASCADE");
    }
  }

  /**
   * The entities' tables against the migrated ones: the same columns, types and indexes, in any
   * column order (EclipseLink orders a table's columns by name; a migration adds a column last).
   */
  private static void assertSameButForColumnPositions(SchemaShape entities, SchemaShape migrated) {
    assertThat(entities.tables().keySet()).isEqualTo(migrated.tables().keySet());
    assertThat(entities.differencesFrom(migrated)).as("what the entities lack").isEmpty();
    assertThat(migrated.differencesFrom(entities)).as("what the migrations lack").isEmpty();
  }

  /** The check that fails a build whose entity maps a column no migration makes. */
  @Test
  void everyColumnAnEntityMapsIsMadeByTheMigrations() throws Exception {
    String url = h2("mapped");
    EntityManagerFactory factory = H2TestDatabase.at(url); // migrates, then opens the unit
    try (Connection c = DriverManager.getConnection(url, "sa", "")) {
      SchemaShape shape = SchemaShape.read(c, "PUBLIC");
      TreeSet<String> made = new TreeSet<>();
      shape
          .tables()
          .forEach(
              (table, lines) ->
                  lines.stream()
                      .filter(line -> line.startsWith("column "))
                      .forEach(line -> made.add(table + "." + line.split(" ")[2])));
      TreeSet<String> mapped = new TreeSet<>();
      for (ClassDescriptor descriptor :
          factory
              .unwrap(JpaEntityManagerFactory.class)
              .getServerSession()
              .getDescriptors()
              .values()) {
        for (DatabaseField field : descriptor.getFields()) {
          mapped.add((field.getTableName() + "." + field.getName()).toLowerCase(Locale.ROOT));
        }
      }
      assertThat(mapped).as("columns the entities map").hasSizeGreaterThanOrEqualTo(77);
      assertThat(made).as("columns the migrations make").containsAll(mapped);
    } finally {
      factory.close();
    }
  }

  /** Makes the tables with EclipseLink's create-or-extend-tables, as builds before 0.2 did. */
  static void generate(String url, String user, String driver) {
    Map<String, String> properties = new HashMap<>();
    properties.put("eclipselink.persistencexml", TaskStoreContract.TEST_PERSISTENCE_XML);
    properties.put("eclipselink.ddl-generation", "create-or-extend-tables");
    properties.put("eclipselink.ddl-generation.output-mode", "database");
    properties.put("jakarta.persistence.jdbc.driver", driver);
    properties.put("jakarta.persistence.jdbc.url", url);
    properties.put("jakarta.persistence.jdbc.user", user);
    properties.put("jakarta.persistence.jdbc.password", "");
    EntityManagerFactory factory =
        Persistence.createEntityManagerFactory(TaskStoreContract.TEST_UNIT, properties);
    try {
      factory.createEntityManager().close(); // the tables are made at the first use
    } finally {
      factory.close();
    }
  }

  private static SchemaShape kept(String database) throws IOException {
    SchemaShape shape =
        SchemaShape.load(
            SchemaTest.class.getClassLoader(),
            "db/taskgate-shape/" + database + "/V" + LATEST + ".txt");
    assertThat(shape).as("the kept shape of version " + LATEST + " on " + database).isNotNull();
    return shape;
  }

  private static void writeIfAsked(String database, SchemaShape shape) throws IOException {
    if (Boolean.getBoolean("taskgate.schema.write-shapes")) {
      Path file = Path.of("src/main/resources/db/taskgate-shape", database, "V" + LATEST + ".txt");
      Files.createDirectories(file.getParent());
      Files.writeString(
          file,
          "# The shape of Taskgate's schema, version "
              + LATEST
              + ", on "
              + database
              + " (SchemaShape, written by SchemaTest)\n"
              + shape.text());
    }
  }

  /**
   * The scripts of every version, oldest first, by file name under db/taskgate/&lt;database&gt;.
   */
  static final List<String> SCRIPTS =
      List.of(
          "V1__baseline.sql",
          "V2__task_ended_index.sql",
          "V3__pause.sql",
          "V4__unique.sql",
          "V5__trace_parent.sql",
          "V6__rate_budget.sql");

  /**
   * Runs the database's scripts by hand, oldest first, statement by statement (each ends a line
   * with ';'), as a DBA with psql would.
   */
  static void run(Connection connection, String database) throws IOException, SQLException {
    for (String script : SCRIPTS) {
      run(connection, database, script);
    }
  }

  /** Runs one of the database's scripts by hand. */
  static void run(Connection connection, String database, String script)
      throws IOException, SQLException {
    String path = "db/taskgate/" + database + "/" + script;
    String text;
    try (InputStream in = SchemaTest.class.getClassLoader().getResourceAsStream(path)) {
      assertThat(in).as(path + " on the class path").isNotNull();
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<String> statements = new ArrayList<>();
    StringBuilder statement = new StringBuilder();
    for (String line : text.split("\n")) {
      if (line.startsWith("--")) {
        continue;
      }
      statement.append(line).append('\n');
      if (line.stripTrailing().endsWith(";")) {
        String sql = statement.toString().strip();
        statements.add(sql.substring(0, sql.length() - 1));
        statement.setLength(0);
      }
    }
    assertThat(statement.toString().strip()).as("text after the last statement").isEmpty();
    try (Statement s = connection.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  static String h2(String name) {
    return "jdbc:h2:mem:schema_" + name + "_" + unique() + ";DB_CLOSE_DELAY=-1";
  }

  private static String unique() {
    return UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }
}
