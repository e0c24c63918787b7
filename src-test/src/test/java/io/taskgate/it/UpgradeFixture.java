package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.it.ledger.Ledger;
import io.taskgate.it.upgrade.Upgrade;
import java.io.File;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The database {@code UpgradeIT} starts from, and how it was made: {@link #make} runs the tasks of
 * {@link Upgrade} on Payara Micro with the build it is compiled in (on H2 or PostgreSQL), leaves
 * them queued, parked for their rate limit, waiting for a mutex and a semaphore, recurring and
 * running, kills the server with {@code kill -9} and writes the database as SQL ({@code <db>.sql}:
 * H2's {@code SCRIPT}, {@code pg_dump --inserts}), with the ledger of the starts ({@code
 * <db>-ledger.txt}) and the tasks' ids ({@code <db>-tasks.properties}). The fixture in {@code
 * src/test/resources/upgrade} was made by the last build before the schema had versions (commit
 * 93569f2, Taskgate 0.1.0-SNAPSHOT): this class and the {@code upgrade} package copied into a
 * worktree of it, run from a test there. Not a test itself.
 */
public final class UpgradeFixture {
  /** The port of the fixture's and the upgrade test's Payara Micro. */
  static final int PORT = 28975;

  /** The PostgreSQL database of both. */
  static final String PG_DATABASE = "taskgate_upgrade";

  private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(4);

  private UpgradeFixture() {}

  /** Makes the fixture of {@code db} ("h2" or "postgresql") in {@code out}. */
  public static void make(String db, Path run, Path out) throws Exception {
    MicroRuns.deleteTree(run);
    Files.createDirectories(run);
    Files.createDirectories(out);
    if (db.equals("postgresql")) {
      MicroRuns.recreateDatabase(PG_DATABASE);
    }
    Path ledger = run.resolve("ledger.txt");
    Process server = start(db, run, war(run), ledger, "fixture.log", "-D" + Upgrade.HOLD + "=true");
    TreeMap<String, String> ids = new TreeMap<>();
    try {
      HttpResponse<String> defined =
          Http.send(
              "PUT",
              api("throttlers/semaphore/upgrade-slots"),
              "{\"maxCount\":1}",
              "admin",
              "taskgate");
      assertThat(defined.statusCode()).as(defined.body()).isEqualTo(200);
      for (int i = 0; i < 5; i++) {
        ids.put(
            "plain-" + i, dispatch("Plain", "{\"id\":\"plain-" + i + "\",\"workMillis\":1}", ""));
      }
      ids.put("tick", recurring("tick", "PT3S"));
      ids.put("step-1", dispatch("Step", step("step-1", 600_000), ""));
      ids.put("slot-1", dispatch("Slot", slot("slot-1", 600_000), ""));
      ids.put("long", dispatch("Plain", "{\"id\":\"long\",\"workMillis\":600000}", ""));
      awaitStarts(ledger, List.of("step-1", "slot-1", "long", "plain-4"));
      ids.put("step-2", dispatch("Step", step("step-2", 20), ""));
      ids.put("step-3", dispatch("Step", step("step-3", 20), ""));
      ids.put("slot-2", dispatch("Slot", slot("slot-2", 20), ""));
      ids.put("slot-3", dispatch("Slot", slot("slot-3", 20), ""));
      ids.put("later", dispatch("Plain", "{\"id\":\"later\",\"workMillis\":1}", "?delay=PT2M"));
      // past a minute's end, so that the per-minute history holds a row; the series runs meanwhile
      awaitMinuteRows();
      for (int i = 0; i < 6; i++) {
        ids.put(
            "paced-" + i, dispatch("Paced", "{\"id\":\"paced-" + i + "\",\"key\":\"acct-1\"}", ""));
      }
      awaitStarts(ledger, List.of("paced-0"));
    } finally {
      server.destroyForcibly();
      assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    Files.copy(ledger, out.resolve(db + "-ledger.txt"), StandardCopyOption.REPLACE_EXISTING);
    StringBuilder tasks =
        new StringBuilder("# the fixture's tasks: their ids in the ledger, their task ids\n");
    ids.forEach((name, id) -> tasks.append(name).append('=').append(id).append('\n'));
    Files.writeString(out.resolve(db + "-tasks.properties"), tasks, StandardCharsets.UTF_8);
    Path dump = out.resolve(db + ".sql");
    if (db.equals("postgresql")) {
      Process pgDump =
          new ProcessBuilder(
                  "pg_dump",
                  "-h",
                  "127.0.0.1",
                  "-U",
                  "postgres",
                  "--inserts",
                  "--no-owner",
                  "--no-privileges",
                  "-f",
                  dump.toString(),
                  PG_DATABASE)
              .inheritIO()
              .start();
      assertThat(pgDump.waitFor()).as("pg_dump").isZero();
    } else {
      try (Connection c = DriverManager.getConnection(h2Url(run), "", "");
          Statement s = c.createStatement()) {
        s.execute("SCRIPT TO '" + dump + "'");
      }
    }
  }

  /** The JDBC URL of the H2 database the README's recipe keeps under {@code run/data}. */
  static String h2Url(Path run) {
    return "jdbc:h2:" + run.resolve("data").resolve("taskgate");
  }

  static String step(String id, int work) {
    return "{\"id\":\"" + id + "\",\"orderId\":\"o-1\",\"workMillis\":" + work + "}";
  }

  static String slot(String id, int work) {
    return "{\"id\":\"" + id + "\",\"workMillis\":" + work + "}";
  }

  /** The WAR with the upgrade test's tasks. */
  static File war(Path run) {
    File war = run.resolve("taskgate.war").toFile();
    ShrinkWrap.create(ZipImporter.class, "taskgate.war")
        .importFrom(new File(ItConfig.required("taskgate.war")))
        .as(WebArchive.class)
        .addPackage(Upgrade.class.getPackage())
        .addPackage(Ledger.class.getPackage())
        .as(ZipExporter.class)
        .exportTo(war, true);
    return war;
  }

  /** Payara Micro on {@link #PORT} with {@code war}, on H2 under {@code run/data} or PostgreSQL. */
  static Process start(
      String db, Path run, File war, Path ledger, String logName, String... jvmOptions)
      throws Exception {
    Process server = launch(db, run, war, ledger, logName, jvmOptions);
    MicroRuns.awaitAnswering(PORT, server, run.resolve(logName), BOOT_TIMEOUT);
    return server;
  }

  /** {@link #start}, without waiting for the application to answer. */
  static Process launch(
      String db, Path run, File war, Path ledger, String logName, String... jvmOptions)
      throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Dtaskgate.examples.enabled=false");
    command.add("-D" + Ledger.FILE + "=" + ledger);
    command.add("-Dtaskgate.h2.dir=" + run.resolve("data"));
    command.addAll(List.of(jvmOptions));
    command.addAll(
        List.of(
            "-jar", ItConfig.required("payara.microJar"), "--nohazelcast", "--port", "" + PORT));
    Path serverConfig = Path.of(ItConfig.required("taskgate.serverConfig"));
    if (db.equals("postgresql")) {
      Properties properties = new Properties();
      try (var in = Files.newInputStream(serverConfig.resolve("postgresql.properties"))) {
        properties.load(in);
      }
      properties.setProperty("taskgate.db.name", PG_DATABASE);
      File file = run.resolve("postgresql.properties").toFile();
      try (OutputStream out = Files.newOutputStream(file.toPath())) {
        properties.store(out, "the upgrade test's database");
      }
      command.addAll(
          List.of(
              "--addlibs",
              ItConfig.required("taskgate.postgresqlJar"),
              "--systemproperties",
              file.getPath(),
              "--postbootcommandfile",
              serverConfig.resolve("datasource-postgresql.asadmin").toString()));
    } else {
      command.addAll(
          List.of(
              "--postbootcommandfile", serverConfig.resolve("datasource-h2.asadmin").toString()));
    }
    command.addAll(List.of("--deploy", war.getPath(), "--contextroot", "taskgate"));
    assertThat(MicroRuns.taken(PORT)).as("port " + PORT + " is taken by another process").isFalse();
    Path log = run.resolve(logName);
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  static URI api(String path) {
    return URI.create("http://localhost:" + PORT + "/taskgate/api/" + path);
  }

  static String dispatch(String type, String body, String query) throws Exception {
    HttpResponse<String> response =
        Http.send("POST", api("tasks/" + type + query), body, "admin", "taskgate");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
    return Http.json(response).getString("id");
  }

  private static String recurring(String id, String every) throws Exception {
    HttpResponse<String> response =
        Http.send(
            "POST", api("upgrade/recurring?id=" + id + "&every=" + every), "", "admin", "taskgate");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Http.json(response).getString("id");
  }

  /** Waits (real time) until each of {@code ids} has started once. */
  static void awaitStarts(Path ledger, List<String> ids) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
    while (Instant.now().isBefore(deadline)) {
      List<String> lines =
          Files.exists(ledger) ? Files.readAllLines(ledger, StandardCharsets.UTF_8) : List.of();
      if (ids.stream()
          .allMatch(
              id ->
                  lines.stream()
                      .anyMatch(l -> l.startsWith("start ") && l.split(" ")[2].equals(id)))) {
        return;
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
    throw new AssertionError("not all of " + ids + " started: " + Files.readString(ledger));
  }

  /**
   * Lets 75 s of real time pass, so that the per-minute history (written as each minute ends) holds
   * rows of this run.
   */
  private static void awaitMinuteRows() throws InterruptedException {
    TimeUnit.SECONDS.sleep(75);
  }
}
