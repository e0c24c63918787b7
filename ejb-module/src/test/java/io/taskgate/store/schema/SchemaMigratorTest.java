package io.taskgate.store.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SchemaMigrator} on real H2 databases and on PostgreSQL: a fresh database migrated once, a
 * database an earlier build made (no history) recognised, repaired and baselined or refused naming
 * the table and column, a newer version refused unless allowed, {@code validate} and {@code none}.
 * PostgreSQL must be running (./test starts it); this class fails without it.
 */
class SchemaMigratorTest {
  /** The newest version this build has. */
  static final String LATEST = "6";

  /** The scripts of every version, oldest first. */
  static final List<String> SCRIPTS =
      List.of(
          "V1__baseline.sql",
          "V2__task_ended_index.sql",
          "V3__pause.sql",
          "V4__unique.sql",
          "V5__trace_parent.sql",
          "V6__rate_budget.sql");

  private static final String PG = "jdbc:postgresql://127.0.0.1:5432/test";

  @Test
  void aFreshDatabaseIsMigratedOnceThenLeftAsItIs() throws Exception {
    String url = h2();
    SchemaMigrator.Outcome first = UrlDataSource.migrate(url, "sa");
    SchemaMigrator.Outcome second = UrlDataSource.migrate(url, "sa");

    assertThat(first.before()).isEqualTo("0");
    assertThat(first.after()).isEqualTo("6");
    assertThat(first.summary()).contains("from version 0 to 6");
    assertThat(second.before()).isEqualTo("6");
    assertThat(second.summary()).contains("at version 6").contains("up to date");
    assertThat(history(url))
        .containsExactly(
            "1 SQL V1__baseline.sql true",
            "2 SQL V2__task_ended_index.sql true",
            "3 SQL V3__pause.sql true",
            "4 SQL V4__unique.sql true",
            "5 SQL V5__trace_parent.sql true",
            "6 SQL V6__rate_budget.sql true");
  }

  @Test
  void theApplicationsOwnTablesBesideDoNotStopTheFirstMigration() throws Exception {
    String url = h2();
    sql(url, "CREATE TABLE orders (id INTEGER PRIMARY KEY)", "INSERT INTO orders VALUES (7)");

    SchemaMigrator.Outcome outcome = UrlDataSource.migrate(url, "sa");

    assertThat(outcome.after()).isEqualTo("6");
    assertThat(history(url))
        .contains(
            "1 SQL V1__baseline.sql true",
            "2 SQL V2__task_ended_index.sql true",
            "3 SQL V3__pause.sql true",
            "4 SQL V4__unique.sql true",
            "5 SQL V5__trace_parent.sql true",
            "6 SQL V6__rate_budget.sql true");
    assertThat(count(url, "SELECT COUNT(*) FROM orders")).isEqualTo(1);
    assertThat(count(url, "SELECT COUNT(*) FROM taskgate_task")).isZero();
  }

  @Test
  void tablesWithVersion1sShapeButNoHistoryAreBaselinedThereWithTheirRowsThenMigrated()
      throws Exception {
    String url = h2();
    byHand(url, "h2", 1);
    sql(url, insertTask("t-1"));

    SchemaMigrator.Outcome outcome = UrlDataSource.migrate(url, "sa");

    assertThat(outcome.before()).isEqualTo("1");
    assertThat(outcome.after()).isEqualTo("6");
    assertThat(history(url))
        .containsExactly(
            "1 BASELINE << Flyway Baseline >> true",
            "2 SQL V2__task_ended_index.sql true",
            "3 SQL V3__pause.sql true",
            "4 SQL V4__unique.sql true",
            "5 SQL V5__trace_parent.sql true",
            "6 SQL V6__rate_budget.sql true");
    assertThat(count(url, "SELECT COUNT(*) FROM taskgate_task WHERE id = 't-1'")).isEqualTo(1);
  }

  @Test
  void anEarlierBuildsTablesGetWhatVersion1AddedAndKeepTheirRows() throws Exception {
    String url = h2();
    byHand(url, "h2", 1);
    sql(
        url,
        insertTask("t-1"),
        // as builds before the rate-limit key, the minute counts and the newest-first list made it
        "DROP INDEX taskgate_task_rate_key",
        "ALTER TABLE taskgate_task DROP COLUMN rate_key",
        "DROP TABLE taskgate_minute_count",
        "DROP INDEX taskgate_task_created",
        "CREATE INDEX taskgate_task_created ON taskgate_task (created_at)",
        "DROP INDEX taskgate_task_due",
        "CREATE INDEX taskgate_task_status_due ON taskgate_task (status, scheduled_at)");

    SchemaMigrator.Outcome outcome = UrlDataSource.migrate(url, "sa");

    assertThat(outcome.after()).isEqualTo("6");
    try (Connection c = DriverManager.getConnection(url, "sa", "")) {
      // everything the versions have, the added column last, and not the earlier due index
      SchemaShape shape = SchemaShape.read(c, "PUBLIC");
      assertThat(shape.differencesFrom(kept("h2"))).isEmpty();
      assertThat(shape.tables().get("taskgate_task")).noneMatch(l -> l.contains("status_due"));
    }
    assertThat(count(url, "SELECT COUNT(*) FROM taskgate_task WHERE id = 't-1'")).isEqualTo(1);
    assertThat(history(url))
        .containsExactly(
            "1 BASELINE << Flyway Baseline >> true",
            "2 SQL V2__task_ended_index.sql true",
            "3 SQL V3__pause.sql true",
            "4 SQL V4__unique.sql true",
            "5 SQL V5__trace_parent.sql true",
            "6 SQL V6__rate_budget.sql true");
  }

  @Test
  void tablesThatDifferBeyondRepairStopTheStartNamingTableAndColumn() throws Exception {
    String url = h2();
    byHand(url, "h2", 1);
    sql(
        url,
        "ALTER TABLE taskgate_task ALTER COLUMN status SET DATA TYPE VARCHAR(8)",
        "DROP INDEX taskgate_task_audit_task",
        "ALTER TABLE taskgate_task_audit DROP COLUMN task_version");

    assertThatThrownBy(() -> UrlDataSource.migrate(url, "sa"))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining(
            "table taskgate_task, column status: CHARACTER VARYING(8,0) nullable NO default null"
                + " where CHARACTER VARYING(16,0) nullable NO default null is needed")
        .hasMessageContaining("table taskgate_task_audit lacks column task_version")
        .hasMessageContaining("db/taskgate/h2/V1__baseline.sql");
    assertThat(hasHistory(url)).as("not baselined").isFalse();
  }

  @Test
  void aNewerVersionThanTheBuildKnowsIsRefusedUnlessAllowed() throws Exception {
    String url = h2();
    UrlDataSource.migrate(url, "sa");
    laterBuild(url);
    SchemaMigrator migrator = new SchemaMigrator(new UrlDataSource(url, "sa"));

    for (SchemaMode mode : List.of(SchemaMode.AUTO, SchemaMode.VALIDATE)) {
      assertThatThrownBy(() -> migrator.apply(mode, false))
          .as(mode.toString())
          .isInstanceOf(SchemaException.class)
          .hasMessageContaining(
              "versions this build of Taskgate does not know: 99 (V99__a_later_build.sql)")
          .hasMessageContaining("taskgate.schema.allow-newer=true");
      assertThat(migrator.apply(mode, true).after()).as(mode.toString()).isEqualTo("99");
    }
  }

  @Test
  void validateRefusesADatabaseWithoutTheTablesNamingTheFiles() throws Exception {
    String url = h2();
    SchemaMigrator migrator = new SchemaMigrator(new UrlDataSource(url, "sa"));

    assertThatThrownBy(() -> migrator.apply(SchemaMode.VALIDATE, false))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("taskgate.schema.migrate=validate")
        .hasMessageContaining("table taskgate_task is missing")
        .hasMessageContaining("db/taskgate/h2/V1__… to V6__…")
        .hasMessageContaining("ejb-module/src/main/resources/db/taskgate/h2");
    assertThat(tables(url)).isEmpty();
  }

  @Test
  void validateRefusesADatabaseBehindTheBuildNamingTheMissingVersions() throws Exception {
    String url = h2();
    Flyway.configure()
        .dataSource(url, "sa", "")
        .table(SchemaMigrator.HISTORY)
        .baselineVersion("0")
        .load()
        .baseline();
    SchemaMigrator migrator = new SchemaMigrator(new UrlDataSource(url, "sa"));

    assertThatThrownBy(() -> migrator.apply(SchemaMode.VALIDATE, false))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining(
            "schema is at version 0, this build needs 6: apply V1__baseline.sql,"
                + " V2__task_ended_index.sql, V3__pause.sql, V4__unique.sql, V5__trace_parent.sql,"
                + " V6__rate_budget.sql");
    assertThat(tables(url)).containsExactly(SchemaMigrator.HISTORY);
  }

  @Test
  void validateAcceptsTheScriptsAppliedByHandAndAMigratedDatabase() throws Exception {
    String byHand = h2();
    byHand(byHand, "h2");
    String migrated = h2();
    UrlDataSource.migrate(migrated, "sa");

    assertThat(
            new SchemaMigrator(new UrlDataSource(byHand, "sa")).apply(SchemaMode.VALIDATE, false))
        .extracting(SchemaMigrator.Outcome::after)
        .isEqualTo("6");
    assertThat(hasHistory(byHand)).as("validate writes nothing").isFalse();
    assertThat(
            new SchemaMigrator(new UrlDataSource(migrated, "sa"))
                .apply(SchemaMode.VALIDATE, false)
                .summary())
        .isEqualTo("Taskgate's schema is at version 6 on H2");
  }

  /** A DBA's Flyway (command line, Maven plugin: the same core) on the files taken from the jar. */
  @Test
  void aHistoryFlywayWroteFromTheFilesIsTaskgatesOwn(@TempDir Path files) throws Exception {
    for (String script : SCRIPTS) {
      try (InputStream in =
          getClass().getClassLoader().getResourceAsStream("db/taskgate/h2/" + script)) {
        Files.copy(in, files.resolve(script));
      }
    }
    String url = h2();
    Flyway.configure()
        .dataSource(url, "sa", "")
        .locations("filesystem:" + files)
        .table(SchemaMigrator.HISTORY)
        .load()
        .migrate();
    SchemaMigrator migrator = new SchemaMigrator(new UrlDataSource(url, "sa"));

    assertThat(migrator.apply(SchemaMode.VALIDATE, false).after()).isEqualTo("6");
    assertThat(migrator.apply(SchemaMode.AUTO, false).summary()).contains("up to date");
    assertThat(history(url))
        .containsExactly(
            "1 SQL V1__baseline.sql true",
            "2 SQL V2__task_ended_index.sql true",
            "3 SQL V3__pause.sql true",
            "4 SQL V4__unique.sql true",
            "5 SQL V5__trace_parent.sql true",
            "6 SQL V6__rate_budget.sql true");
  }

  @Test
  void noneDoesNotEvenConnect() {
    AtomicInteger connections = new AtomicInteger();
    SchemaMigrator migrator = new SchemaMigrator(new UrlDataSource(h2(), "sa", connections));

    assertThat(migrator.apply(SchemaMode.NONE, false).summary()).contains("not read");
    assertThat(connections).hasValue(0);
  }

  @Test
  void theSettingIsNamedWithItsValueWhenItIsNotAMode() {
    assertThat(SchemaMode.parse(" Validate ")).isEqualTo(SchemaMode.VALIDATE);
    assertThatThrownBy(() -> SchemaMode.parse("update"))
        .hasMessage("taskgate.schema.migrate is \"update\": it must be auto, validate or none");
  }

  /** Two instances starting together: one migrates while the other waits, then finds it done. */
  @Test
  void twoInstancesStartingTogetherOnPostgresqlMigrateOnce() throws Exception {
    String schema = "taskgate_race_" + unique();
    sqlAs(PG, "postgres", "CREATE SCHEMA " + schema);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (Connection holder = DriverManager.getConnection(PG, "postgres", "")) {
      try (Statement s = holder.createStatement()) {
        s.execute("SELECT pg_advisory_lock(" + SchemaMigrator.LOCK_KEY + ")");
      }
      String url = PG + "?currentSchema=" + schema;
      List<CompletableFuture<SchemaMigrator.Outcome>> starts = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        starts.add(
            CompletableFuture.supplyAsync(() -> UrlDataSource.migrate(url, "postgres"), pool));
      }
      awaitWaiters(holder, 2);
      try (Statement s = holder.createStatement()) {
        s.execute("SELECT pg_advisory_unlock(" + SchemaMigrator.LOCK_KEY + ")");
      }
      List<String> befores = new ArrayList<>();
      for (CompletableFuture<SchemaMigrator.Outcome> start : starts) {
        SchemaMigrator.Outcome outcome = start.get(60, TimeUnit.SECONDS);
        assertThat(outcome.after()).isEqualTo("6");
        befores.add(outcome.before());
      }
      assertThat(befores).containsExactlyInAnyOrder("0", "6");
      try (Statement s = holder.createStatement();
          ResultSet r =
              s.executeQuery(
                  "SELECT version, success FROM " + schema + "." + SchemaMigrator.HISTORY)) {
        List<String> rows = new ArrayList<>();
        while (r.next()) {
          rows.add(r.getString(1) + " " + r.getBoolean(2));
        }
        assertThat(rows)
            .containsExactlyInAnyOrder("1 true", "2 true", "3 true", "4 true", "5 true", "6 true");
      }
    } finally {
      pool.shutdownNow();
      sqlAs(PG, "postgres", "DROP SCHEMA " + schema + " CASCADE");
    }
  }

  /** Waits until {@code count} sessions wait for the schema's advisory lock (real time passes). */
  private static void awaitWaiters(Connection connection, int count) throws SQLException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    int waiting = 0;
    while (Instant.now().isBefore(deadline)) {
      try (Statement s = connection.createStatement();
          ResultSet r =
              s.executeQuery(
                  "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                      + " AND ((classid::bigint << 32) | objid::bigint) = "
                      + SchemaMigrator.LOCK_KEY)) {
        r.next();
        waiting = r.getInt(1);
      }
      if (waiting >= count) {
        return;
      }
      Thread.onSpinWait();
    }
    throw new AssertionError(waiting + " sessions waited for the lock, not " + count);
  }

  private static void laterBuild(String url) {
    Flyway.configure()
        .dataSource(url, "sa", "")
        .table(SchemaMigrator.HISTORY)
        .locations("classpath:db/taskgate/h2", "classpath:db/taskgate-test-future/h2")
        .load()
        .migrate();
  }

  static SchemaShape kept(String database) throws IOException {
    return SchemaShape.load(
        SchemaMigratorTest.class.getClassLoader(),
        "db/taskgate-shape/" + database + "/V" + LATEST + ".txt");
  }

  /** The scripts of every version run by hand, oldest first, as a DBA would. */
  static void byHand(String url, String database) throws Exception {
    byHand(url, database, Integer.parseInt(LATEST));
  }

  /** The scripts of versions 1 to {@code version} run by hand, oldest first. */
  static void byHand(String url, String database, int version) throws Exception {
    for (String script : SCRIPTS.subList(0, version)) {
      byHandScript(url, database, script);
    }
  }

  private static void byHandScript(String url, String database, String script) throws Exception {
    String path = "db/taskgate/" + database + "/" + script;
    String text;
    try (InputStream in = SchemaMigratorTest.class.getClassLoader().getResourceAsStream(path)) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<String> statements = new ArrayList<>();
    StringBuilder statement = new StringBuilder();
    for (String line : text.split("\n")) {
      if (!line.startsWith("--")) {
        statement.append(line).append('\n');
        if (line.stripTrailing().endsWith(";")) {
          String sql = statement.toString().strip();
          statements.add(sql.substring(0, sql.length() - 1));
          statement.setLength(0);
        }
      }
    }
    sql(url, statements.toArray(String[]::new));
  }

  private static String insertTask(String id) {
    return "INSERT INTO taskgate_task (id, attempt, payload, queue, runs, status, type, version)"
        + " VALUES ('"
        + id
        + "', 1, '{}', 'default', 0, 'QUEUED', 'demo', 0)";
  }

  private static List<String> history(String url) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url, "sa", "");
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT \"version\", \"type\", \"script\", \"success\" FROM \""
                    + SchemaMigrator.HISTORY
                    + "\" WHERE \"version\" IS NOT NULL ORDER BY \"installed_rank\"")) {
      while (r.next()) {
        rows.add(
            r.getString(1) + " " + r.getString(2) + " " + r.getString(3) + " " + r.getBoolean(4));
      }
    }
    return rows;
  }

  private static boolean hasHistory(String url) throws SQLException {
    return tables(url).contains(SchemaMigrator.HISTORY);
  }

  private static List<String> tables(String url) throws SQLException {
    List<String> tables = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url, "sa", "");
        ResultSet r = c.getMetaData().getTables(null, "PUBLIC", "%", new String[] {"TABLE"})) {
      while (r.next()) {
        tables.add(r.getString("TABLE_NAME").toLowerCase(java.util.Locale.ROOT));
      }
    }
    return tables;
  }

  private static long count(String url, String query) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, "sa", "");
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(query)) {
      r.next();
      return r.getLong(1);
    }
  }

  private static void sql(String url, String... statements) throws SQLException {
    sqlAs(url, "sa", statements);
  }

  private static void sqlAs(String url, String user, String... statements) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, user, "");
        Statement s = c.createStatement()) {
      for (String statement : statements) {
        s.execute(statement);
      }
    }
  }

  private static String h2() {
    return "jdbc:h2:mem:migrator_" + unique() + ";DB_CLOSE_DELAY=-1";
  }

  private static String unique() {
    return UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }
}
