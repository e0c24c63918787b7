package io.taskgate.store.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.Test;

/**
 * The schema's version 1 ({@code db/taskgate/<database>/V1__baseline.sql}) is exactly what
 * EclipseLink's {@code create-or-extend-tables} makes of the entities: the same tables, columns
 * (type, size, nullability, default, order), primary keys and indexes (columns, order, direction,
 * uniqueness), compared through the JDBC metadata on H2 and on PostgreSQL, run as a plain script
 * and through Flyway (its history in {@value #HISTORY}). PostgreSQL must be running (./test starts
 * it); this class fails without it, it does not skip.
 */
class SchemaV1Test {
  /** Flyway's history table of Taskgate's own schema versions. */
  static final String HISTORY = "taskgate_schema_history";

  @Test
  void theH2ScriptMakesTheSchemaTheEntitiesMake() throws Exception {
    String fromEntities = "jdbc:h2:mem:v1_jpa_" + unique() + ";DB_CLOSE_DELAY=-1";
    EntityManagerFactory factory = H2TestDatabase.at(fromEntities);
    try {
      factory.createEntityManager().close(); // the tables are made at the first use
      String fromScript = "jdbc:h2:mem:v1_sql_" + unique() + ";DB_CLOSE_DELAY=-1";
      String fromFlyway = "jdbc:h2:mem:v1_flyway_" + unique() + ";DB_CLOSE_DELAY=-1";
      try (Connection entities = DriverManager.getConnection(fromEntities, "sa", "");
          Connection script = DriverManager.getConnection(fromScript, "sa", "");
          Connection flyway = DriverManager.getConnection(fromFlyway, "sa", "")) {
        run(script, "h2");
        migrate(fromFlyway, "sa", "h2", "PUBLIC");
        Map<String, List<String>> made = describe(entities, "PUBLIC");
        assertThat(made).hasSize(8);
        assertThat(describe(script, "PUBLIC")).isEqualTo(made);
        assertThat(describe(flyway, "PUBLIC")).isEqualTo(made);
      }
    } finally {
      factory.close();
    }
  }

  @Test
  void thePostgresqlScriptMakesTheSchemaTheEntitiesMake() throws Exception {
    String server = PostgresTaskStoreTest.SERVER;
    String user = PostgresTaskStoreTest.USER;
    String entitiesSchema = "taskgate_v1_jpa_" + unique();
    String scriptSchema = "taskgate_v1_sql_" + unique();
    String flywaySchema = "taskgate_v1_flyway_" + unique();
    try (Connection admin = DriverManager.getConnection(server, user, "");
        Statement s = admin.createStatement()) {
      s.execute("CREATE SCHEMA " + entitiesSchema);
      s.execute("CREATE SCHEMA " + scriptSchema);
      s.execute("CREATE SCHEMA " + flywaySchema);
    }
    try {
      EntityManagerFactory factory =
          Persistence.createEntityManagerFactory(
              TaskStoreContract.TEST_UNIT,
              Map.of(
                  "eclipselink.persistencexml",
                  TaskStoreContract.TEST_PERSISTENCE_XML,
                  "jakarta.persistence.jdbc.driver",
                  "org.postgresql.Driver",
                  "jakarta.persistence.jdbc.url",
                  server + "?currentSchema=" + entitiesSchema,
                  "jakarta.persistence.jdbc.user",
                  user,
                  "jakarta.persistence.jdbc.password",
                  ""));
      try {
        factory.createEntityManager().close();
      } finally {
        factory.close();
      }
      try (Connection entities = DriverManager.getConnection(server, user, "");
          Connection script =
              DriverManager.getConnection(server + "?currentSchema=" + scriptSchema, user, "")) {
        run(script, "postgresql");
        migrate(server + "?currentSchema=" + flywaySchema, user, "postgresql", flywaySchema);
        Map<String, List<String>> made = describe(entities, entitiesSchema);
        assertThat(made).hasSize(8);
        assertThat(describe(script, scriptSchema)).isEqualTo(made);
        assertThat(describe(entities, flywaySchema)).isEqualTo(made);
      }
    } finally {
      try (Connection admin = DriverManager.getConnection(server, user, "");
          Statement s = admin.createStatement()) {
        s.execute("DROP SCHEMA " + entitiesSchema + " CASCADE");
        s.execute("DROP SCHEMA " + scriptSchema + " CASCADE");
        s.execute("DROP SCHEMA " + flywaySchema + " CASCADE");
      }
    }
  }

  /**
   * Migrates the database at {@code url} with Flyway from the scripts of {@code database}, its
   * history in {@code taskgate_schema_history}; returns the version it reached.
   */
  private static void migrate(String url, String user, String database, String schema) {
    MigrateResult result =
        Flyway.configure()
            .dataSource(url, user, "")
            .locations("classpath:db/taskgate/" + database)
            .table(HISTORY)
            .defaultSchema(schema)
            .load()
            .migrate();
    assertThat(result.targetSchemaVersion).isEqualTo("1");
  }

  /** Runs the database's V1 script, statement by statement (each ends a line with ';'). */
  private static void run(Connection connection, String database) throws IOException, SQLException {
    String path = "db/taskgate/" + database + "/V1__baseline.sql";
    String text;
    try (InputStream in = SchemaV1Test.class.getClassLoader().getResourceAsStream(path)) {
      assertThat(in).as(path + " on the class path").isNotNull();
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    StringBuilder statement = new StringBuilder();
    try (Statement s = connection.createStatement()) {
      for (String line : text.split("\n")) {
        if (line.startsWith("--")) {
          continue;
        }
        statement.append(line).append('\n');
        if (line.stripTrailing().endsWith(";")) {
          String sql = statement.toString().strip();
          s.execute(sql.substring(0, sql.length() - 1));
          statement.setLength(0);
        }
      }
    }
    assertThat(statement.toString().strip()).as("text after the last statement").isEmpty();
  }

  /**
   * Each Taskgate table of {@code schema} (lower-case name) to its columns in order, its primary
   * key and its other indexes, as text.
   */
  private static Map<String, List<String>> describe(Connection connection, String schema)
      throws SQLException {
    DatabaseMetaData meta = connection.getMetaData();
    Map<String, String> tables = new TreeMap<>();
    try (ResultSet t = meta.getTables(null, schema, "%", new String[] {"TABLE"})) {
      while (t.next()) {
        String name = t.getString("TABLE_NAME");
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.startsWith("taskgate_") && !lower.equals(HISTORY)) {
          tables.put(name.toLowerCase(Locale.ROOT), name);
        }
      }
    }
    Map<String, List<String>> described = new TreeMap<>();
    for (Map.Entry<String, String> table : tables.entrySet()) {
      List<String> lines = new ArrayList<>();
      try (ResultSet c = meta.getColumns(null, schema, table.getValue(), "%")) {
        while (c.next()) {
          lines.add(
              "column "
                  + c.getInt("ORDINAL_POSITION")
                  + " "
                  + c.getString("COLUMN_NAME").toLowerCase(Locale.ROOT)
                  + " "
                  + c.getString("TYPE_NAME")
                  + "("
                  + c.getInt("COLUMN_SIZE")
                  + ","
                  + c.getInt("DECIMAL_DIGITS")
                  + ") nullable "
                  + c.getString("IS_NULLABLE")
                  + " default "
                  + c.getString("COLUMN_DEF"));
        }
      }
      try (ResultSet k = meta.getPrimaryKeys(null, schema, table.getValue())) {
        while (k.next()) {
          lines.add(
              "primary key "
                  + k.getInt("KEY_SEQ")
                  + " "
                  + k.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
        }
      }
      try (ResultSet i = meta.getIndexInfo(null, schema, table.getValue(), false, false)) {
        while (i.next()) {
          String index = i.getString("INDEX_NAME");
          if (index == null) {
            continue;
          }
          String name = index.toLowerCase(Locale.ROOT);
          if (name.startsWith("primary_key") || name.endsWith("_pkey")) {
            continue; // the primary key's own index, named by the database
          }
          lines.add(
              "index "
                  + name
                  + " unique "
                  + !i.getBoolean("NON_UNIQUE")
                  + " "
                  + i.getInt("ORDINAL_POSITION")
                  + " "
                  + String.valueOf(i.getString("COLUMN_NAME")).toLowerCase(Locale.ROOT)
                  + " "
                  + i.getString("ASC_OR_DESC"));
        }
      }
      lines.sort(null);
      described.put(table.getKey(), lines);
    }
    return described;
  }

  private static String unique() {
    return UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }
}
