package io.taskgate.load;

import io.taskgate.load.app.NoopTask;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
import java.util.Locale;
import java.util.Properties;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * Measures the task engine end to end on Payara Micro: for each database and configuration it boots
 * one Micro (the WAR that web-module builds plus {@link io.taskgate.load.app}), runs a warm-up,
 * then {@code load.runs} measured runs of {@code load.tasks} no-op tasks, and prints a table (also
 * written to {@code target/load/results.md}).
 *
 * <p>System properties (the {@code load} profile in src-test/pom.xml sets the paths):
 *
 * <ul>
 *   <li>{@code load.dbs}: {@code h2,postgresql}
 *   <li>{@code load.configs}: configurations separated by {@code ;}, each {@code name:key=value,…}
 *       of MicroProfile Config keys handed to Micro as system properties, except {@code
 *       load.batch=N}: each dispatching thread then stores N tasks per {@code dispatchAll}; {@code
 *       load.rate=N}: the threads together dispatch N tasks a second at most, evenly spaced,
 *       instead of as fast as dispatch returns; the warm-up is not paced
 *   <li>{@code load.pacing}: {@code parked,others,gapMicros[,releaseMillis]} (e.g. {@code
 *       10000,10000,2000}) also runs the pacing run after each boot's measured runs (see {@code
 *       app.PacingRun}); several, separated by {@code /}, run one after the other in each boot; its
 *       table goes to {@code pacing.md}
 *   <li>{@code load.pacing.warmup}: pacing runs in the same format, before those of {@code
 *       load.pacing} in each boot, each reported as its own row marked "(warm-up)" (empty: none)
 *   <li>{@code load.throttlers}: {@code tasks,workMicros} (e.g. {@code 2000,1000}) also runs the
 *       job throttlers' run after each boot's other runs (see {@code app.ThrottleRun}); several,
 *       separated by {@code /}; its table goes to {@code throttlers.md}
 *   <li>{@code load.limited}: {@code calls,keys} (e.g. {@code 200000,10000}) also measures what
 *       {@code @RateLimited} adds to a call in the container (see {@code app.LimitedCallsRun});
 *       several, separated by {@code /}; its table goes to {@code limited.md}
 *   <li>{@code load.pacing.fullgc}: {@code true} runs a full collection of Micro's heap after the
 *       warm-up runs and before the measured ones ({@code false}): the objects made while Micro
 *       booted and warmed up are then in the old generation, as on a server that has been up for a
 *       while, instead of being copied by every young collection until they are old enough
 *   <li>{@code load.history}: on PostgreSQL, that many COMPLETED tasks that ended eight days ago
 *       (with their audit rows) are stored before the warm-up, for retention to prune while the
 *       runs flow (0: none)
 *   <li>{@code load.tasks} (20000), {@code load.threads} (4), {@code load.runs} (2), {@code
 *       load.warmup} (5000 tasks), {@code load.port} (27080), {@code load.db.name} (taskgate_load,
 *       dropped and created again before each boot on PostgreSQL), {@code load.micro.jvm} (Micro's
 *       JVM options, comma-separated: -Xms1g,-Xmx1g)
 * </ul>
 */
public final class EngineLoad {
  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private final Path out;
  private final int port;
  private final int tasks;
  private final int threads;
  private final int runs;
  private final int warmup;
  private final Properties pg;
  private final File war;

  private final List<String> pacingRows = new ArrayList<>();
  private final List<String> throttlerRows = new ArrayList<>();
  private final List<String> limitedRows = new ArrayList<>();

  private EngineLoad() throws IOException {
    out = Path.of(required("load.out"));
    Files.createDirectories(out);
    port = Integer.getInteger("load.port", 27080);
    tasks = Integer.getInteger("load.tasks", 20_000);
    threads = Integer.getInteger("load.threads", 4);
    runs = Integer.getInteger("load.runs", 2);
    warmup = Integer.getInteger("load.warmup", 5_000);
    pg = new Properties();
    try (InputStream in = new FileInputStream(serverConfig("postgresql.properties"))) {
      pg.load(in);
    }
    pg.setProperty("taskgate.db.name", System.getProperty("load.db.name", "taskgate_load"));
    war = loadWar();
  }

  public static void main(String[] args) throws Exception {
    EngineLoad load = new EngineLoad();
    String configs =
        System.getProperty(
            "load.configs",
            "default:;p16-minimal:taskgate.queue.default.parallelism=16,taskgate.audit.level=MINIMAL");
    List<String> rows = new ArrayList<>();
    for (String db : System.getProperty("load.dbs", "h2,postgresql").split(",")) {
      for (String config : configs.split(";")) {
        rows.addAll(load.measure(db.strip(), config.strip()));
      }
    }
    if (!load.pacingRows.isEmpty()) {
      String pacing =
          "| db | config | hot tasks, released | started | parked measured | lateness p50 ms | p99 ms |"
              + " max ms | p99 once all parked ms (tasks) | early | GCRA violations (worst), with 5 ms CDVT | busiest second / allowed | parked before / after |"
              + " others |"
              + " others p50 / p99 ms, no hot key | with hot key | p99 ratio | GC while pacing: pauses, ms | held for spacing | started while waiting for a commit |\n"
              + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
              + String.join("\n", load.pacingRows)
              + "\n";
      System.out.println("\nTaskgate pacing\n\n" + pacing);
      Files.writeString(load.out.resolve("pacing.md"), pacing, StandardCharsets.UTF_8);
    }
    if (!load.limitedRows.isEmpty()) {
      String limited =
          "| calls × keys | plain p50 / p99 ns | one budget p50 / p99 ns | per key p50 / p99 ns |"
              + " added at p50, one budget / per key ns |\n"
              + "|---|---|---|---|---|\n"
              + String.join("\n", load.limitedRows)
              + "\n";
      System.out.println("\nTaskgate @RateLimited in the container\n\n" + limited);
      Files.writeString(load.out.resolve("limited.md"), limited, StandardCharsets.UTF_8);
    }
    if (!load.throttlerRows.isEmpty()) {
      String throttlers =
          "| db | config | tasks × work | wake-up p50 / p99 / max ms | mutex tasks/s |"
              + " semaphore(4) on 8 workers / plain on 4, tasks/s | ratio | most at once |"
              + " one throttle / none, tasks/s | ratio | cost per task µs |"
              + " concurrency(2) per key: wake-up p50 / p99 ms | most of a key at once |\n"
              + "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
              + String.join("\n", load.throttlerRows)
              + "\n";
      System.out.println("\nTaskgate job throttlers\n\n" + throttlers);
      Files.writeString(load.out.resolve("throttlers.md"), throttlers, StandardCharsets.UTF_8);
    }
    String table =
        "| db | config | run | tasks | completed (store) | dispatch s | total s | tasks/s"
            + " | p50 ms | p99 ms | max ms | workers | queue full | Micro CPU ms/task"
            + " | PostgreSQL CPU ms/task | commits/task | dispatch call p50 / p99 ms |\n"
            + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
            + String.join("\n", rows)
            + "\n";
    System.out.println("\nTaskgate engine load, " + Instant.now() + "\n\n" + table);
    Files.writeString(load.out.resolve("results.md"), table, StandardCharsets.UTF_8);
  }

  /** One Micro boot: the warm-up and the measured runs of one database and configuration. */
  private List<String> measure(String db, String config) throws Exception {
    String name = config.substring(0, config.indexOf(':'));
    String settings = config.substring(config.indexOf(':') + 1);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(System.getProperty("load.micro.jvm", "-Xms1g,-Xmx1g").split(",")));
    int batch = 1;
    int rate = 0;
    for (String setting : settings.split(",")) {
      if (setting.strip().startsWith("load.batch=")) {
        batch = Integer.parseInt(setting.strip().substring("load.batch=".length()));
      } else if (setting.strip().startsWith("load.rate=")) {
        rate = Integer.parseInt(setting.strip().substring("load.rate=".length()));
      } else if (!setting.isBlank()) {
        command.add("-D" + setting.strip());
      }
    }
    command.addAll(
        List.of(
            "-jar",
            required("load.micro"),
            "--nohazelcast",
            "--port",
            String.valueOf(port),
            "--contextroot",
            "taskgate"));
    if (db.equals("postgresql")) {
      recreateDatabase();
      File properties = out.resolve("postgresql.properties").toFile();
      try (OutputStream o = new FileOutputStream(properties)) {
        pg.store(o, "server-config/postgresql.properties with the load database");
      }
      command.addAll(
          List.of(
              "--addlibs",
              required("load.pgjar"),
              "--systemproperties",
              properties.getPath(),
              "--postbootcommandfile",
              serverConfig("datasource-postgresql.asadmin").getPath()));
    } else if (!db.equals("h2")) {
      throw new IllegalArgumentException("load.dbs: h2 or postgresql, was " + db);
    }
    command.addAll(List.of("--deploy", war.getPath()));
    File log = out.resolve("micro-" + db + "-" + name + ".log").toFile();
    System.out.println("Booting Payara Micro (" + db + ", " + name + "), log " + log);
    Process micro =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
    List<String> rows = new ArrayList<>();
    try {
      awaitUp(micro, log);
      long history = Long.getLong("load.history", 0);
      if (history > 0) {
        seedHistory(db, history);
      }
      if (warmup > 0) {
        post(warmup, batch, 0);
      }
      for (int i = 1; i <= runs; i++) {
        long microBefore = cpuTicks(micro.pid());
        long pgBefore = postgresTicks();
        long commitsBefore = db.equals("postgresql") ? commits() : 0;
        JsonObject r = post(tasks, batch, rate);
        String perTask =
            db.equals("postgresql")
                ? String.format(Locale.ROOT, " %.2f", (commits() - commitsBefore) / (double) tasks)
                : " -";
        double microCpu = (cpuTicks(micro.pid()) - microBefore) * 1000.0 / TICKS / tasks;
        double pgCpu = (postgresTicks() - pgBefore) * 1000.0 / TICKS / tasks;
        String dbRows = db.equals("postgresql") ? " " + countRows() : "";
        rows.add(
            String.format(
                Locale.ROOT,
                "| %s | %s | %d | %d | %d (%d)%s | %.2f | %.2f | **%.0f** | %.1f | %.1f | %.1f | %d"
                    + " | %d | %.3f | %.3f |%s | %.2f / %.2f |",
                db,
                name,
                i,
                r.getInt("tasks"),
                r.getInt("completed"),
                r.getJsonNumber("storedCompleted").longValue(),
                dbRows,
                r.getJsonNumber("dispatchSeconds").doubleValue(),
                r.getJsonNumber("totalSeconds").doubleValue(),
                r.getJsonNumber("tasksPerSecond").doubleValue(),
                r.getJsonNumber("p50Micros").longValue() / 1000.0,
                r.getJsonNumber("p99Micros").longValue() / 1000.0,
                r.getJsonNumber("maxMicros").longValue() / 1000.0,
                r.getInt("workerThreads"),
                r.getInt("queueFull"),
                microCpu,
                pgCpu,
                perTask,
                r.getJsonNumber("callP50Micros").longValue() / 1000.0,
                r.getJsonNumber("callP99Micros").longValue() / 1000.0));
        System.out.println(rows.get(rows.size() - 1));
      }
      String pacing = System.getProperty("load.pacing", "");
      String pacingWarmup = System.getProperty("load.pacing.warmup", "");
      for (String one :
          pacing.isBlank() || pacingWarmup.isBlank() ? new String[0] : pacingWarmup.split("/")) {
        // the gate's paths warmed up first, as on a server that has been running: reported apart
        pacingRows.add(pacing(db, name + " (warm-up)", one.split(",")));
        System.out.println(pacingRows.get(pacingRows.size() - 1));
      }
      if (!pacing.isBlank() && Boolean.getBoolean("load.pacing.fullgc")) {
        System.out.println(
            "Full collection before the measured pacing runs: "
                + post(URI.create("http://localhost:" + port + "/taskgate/api/load/gc"))
                + " ms");
      }
      for (String one : pacing.isBlank() ? new String[0] : pacing.split("/")) {
        pacingRows.add(pacing(db, name, one.split(",")));
        System.out.println(pacingRows.get(pacingRows.size() - 1));
      }
      String throttlers = System.getProperty("load.throttlers", "");
      for (String one : throttlers.isBlank() ? new String[0] : throttlers.split("/")) {
        throttlerRows.add(throttlers(db, name, one.split(",")));
        System.out.println(throttlerRows.get(throttlerRows.size() - 1));
      }
      String limited = System.getProperty("load.limited", "");
      for (String one : limited.isBlank() ? new String[0] : limited.split("/")) {
        limitedRows.add(limited(one.split(",")));
        System.out.println(limitedRows.get(limitedRows.size() - 1));
      }
    } finally {
      micro.destroy();
      if (!micro.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
        micro.destroyForcibly().waitFor();
      }
    }
    return rows;
  }

  private void awaitUp(Process micro, File log) throws Exception {
    URI info = URI.create("http://localhost:" + port + "/taskgate/api/info");
    long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
    while (System.nanoTime() < deadline) {
      if (!micro.isAlive()) {
        throw new IllegalStateException("Payara Micro stopped while booting: see " + log);
      }
      try {
        if (HTTP.send(HttpRequest.newBuilder(info).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode()
            == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      micro.waitFor(1, java.util.concurrent.TimeUnit.SECONDS);
    }
    throw new IllegalStateException("Payara Micro did not answer " + info + " in 5 min: " + log);
  }

  /** What {@code @RateLimited} adds in the container ({@code calls,keys}), as a table row. */
  private String limited(String[] knobs) throws IOException, InterruptedException {
    JsonObject r =
        postForJson(
            URI.create(
                "http://localhost:"
                    + port
                    + "/taskgate/api/load/limited?calls="
                    + knobs[0].strip()
                    + "&keys="
                    + (knobs.length > 1 ? knobs[1].strip() : "10000")));
    return String.format(
        Locale.ROOT,
        "| %d × %d | %d / %d | %d / %d | %d / %d | **%d / %d** |",
        r.getInt("calls"),
        r.getInt("keys"),
        r.getJsonNumber("plainP50Nanos").longValue(),
        r.getJsonNumber("plainP99Nanos").longValue(),
        r.getJsonNumber("sharedP50Nanos").longValue(),
        r.getJsonNumber("sharedP99Nanos").longValue(),
        r.getJsonNumber("keyedP50Nanos").longValue(),
        r.getJsonNumber("keyedP99Nanos").longValue(),
        r.getJsonNumber("sharedAddedP50Nanos").longValue(),
        r.getJsonNumber("keyedAddedP50Nanos").longValue());
  }

  /** The job throttlers' run ({@code tasks,workMicros}), as a table row. */
  private String throttlers(String db, String name, String[] knobs)
      throws IOException, InterruptedException {
    JsonObject r =
        postForJson(
            URI.create(
                "http://localhost:"
                    + port
                    + "/taskgate/api/load/throttlers?tasks="
                    + knobs[0].strip()
                    + "&workMicros="
                    + (knobs.length > 1 ? knobs[1].strip() : "1000")));
    return String.format(
        Locale.ROOT,
        "| %s | %s | %d × %d µs | %.2f / **%.2f** / %.2f | %.0f | %.0f / %.0f | **%.2f** | %d | %.0f"
            + " / %.0f | **%.2f** | %.1f | %.2f / **%.2f** | %d |",
        db,
        name,
        r.getInt("tasks"),
        r.getInt("workMicros"),
        r.getJsonNumber("wakeP50Micros").longValue() / 1000.0,
        r.getJsonNumber("wakeP99Micros").longValue() / 1000.0,
        r.getJsonNumber("wakeMaxMicros").longValue() / 1000.0,
        r.getJsonNumber("mutexTasksPerSecond").doubleValue(),
        r.getJsonNumber("semaphore4TasksPerSecond").doubleValue(),
        r.getJsonNumber("plain4TasksPerSecond").doubleValue(),
        r.getJsonNumber("semaphoreRatio").doubleValue(),
        r.getInt("semaphoreMostAtOnce"),
        r.getJsonNumber("oneThrottleTasksPerSecond").doubleValue(),
        r.getJsonNumber("noThrottleTasksPerSecond").doubleValue(),
        r.getJsonNumber("throttleRatio").doubleValue(),
        r.getJsonNumber("costPerTaskMicros").doubleValue(),
        r.getJsonNumber("concurrencyWakeP50Micros").longValue() / 1000.0,
        r.getJsonNumber("concurrencyWakeP99Micros").longValue() / 1000.0,
        r.getInt("concurrencyMostPerKey"));
  }

  /** The pacing run ({@code parked,others,gapMicros[,releaseMillis]}), as a table row. */
  private String pacing(String db, String name, String[] knobs)
      throws IOException, InterruptedException {
    URI uri =
        URI.create(
            "http://localhost:"
                + port
                + "/taskgate/api/load/pacing?parked="
                + knobs[0].strip()
                + "&others="
                + knobs[1].strip()
                + "&gapMicros="
                + knobs[2].strip()
                + "&releaseMillis="
                + (knobs.length > 3 ? knobs[3].strip() : "0"));
    JsonObject r = postForJson(uri);
    double baseP99 = r.getJsonNumber("baselineP99Micros").longValue() / 1000.0;
    double hotP99 = r.getJsonNumber("withHotP99Micros").longValue() / 1000.0;
    String row =
        String.format(
            Locale.ROOT,
            "| %s | %s | %d, %s | %d | %d | %.2f | **%.2f** | %.2f | %.2f (%d) | %d | **%d** (%.2f ms), %d | %d / %d | %d / %d | %d |"
                + " %.2f / %.2f | %.2f / %.2f | **%.2f** | %d, %d | %d | %d |",
            db,
            name,
            r.getInt("hotTasks"),
            r.getJsonNumber("releaseMillis").longValue() == 0
                ? "due at once"
                : "stored, then due together",
            r.getInt("hotStarted"),
            r.getInt("parkedMeasured"),
            r.getJsonNumber("latenessP50Micros").longValue() / 1000.0,
            r.getJsonNumber("latenessP99Micros").longValue() / 1000.0,
            r.getJsonNumber("latenessMaxMicros").longValue() / 1000.0,
            r.getJsonNumber("onceParkedP99Micros").longValue() / 1000.0,
            r.getInt("onceParkedMeasured"),
            r.getJsonNumber("early").longValue(),
            r.getJsonNumber("gcraViolations").longValue(),
            r.getJsonNumber("gcraWorstMicros").longValue() / 1000.0,
            r.getJsonNumber("gcraViolationsCdvt5ms").longValue(),
            r.getInt("busiestSecond"),
            r.getInt("allowedPerSecond"),
            r.getInt("parkedBefore"),
            r.getInt("parkedAfter"),
            r.getInt("others"),
            r.getJsonNumber("baselineP50Micros").longValue() / 1000.0,
            baseP99,
            r.getJsonNumber("withHotP50Micros").longValue() / 1000.0,
            hotP99,
            baseP99 == 0 ? 0 : hotP99 / baseP99,
            r.getJsonNumber("gcPauses").longValue(),
            r.getJsonNumber("gcPauseMillis").longValue(),
            r.getJsonNumber("spacedStarts").longValue(),
            r.getJsonNumber("startsWhileWaiting").longValue());
    if (r.getInt("others") == 0) {
      // the hot key alone: no other keys were measured
      row = row.replace("| 0 | 0.00 / 0.00 | 0.00 / 0.00 | **0.00** |", "| 0 | – | – | – |");
    }
    return row;
  }

  private JsonObject post(int count, int batch, int rate) throws IOException, InterruptedException {
    URI uri =
        URI.create(
            "http://localhost:"
                + port
                + "/taskgate/api/load?tasks="
                + count
                + "&threads="
                + threads
                + "&batch="
                + batch
                + "&rate="
                + rate);
    return postForJson(uri);
  }

  /**
   * Basic credentials of the default admin user: every method but GET under {@code /api} needs the
   * role taskgate-admin.
   */
  private static final String ADMIN_AUTHORIZATION =
      "Basic "
          + java.util.Base64.getEncoder()
              .encodeToString("admin:taskgate".getBytes(java.nio.charset.StandardCharsets.UTF_8));

  /** POSTs to {@code uri} (no body) as the default admin and reads the 200 answer's JSON object. */
  private static JsonObject postForJson(URI uri) throws IOException, InterruptedException {
    try (var reader = Json.createReader(new StringReader(post(uri)))) {
      return reader.readObject();
    }
  }

  /** POSTs to {@code uri} (no body) as the default admin: the 200 answer's body. */
  private static String post(URI uri) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(uri)
                .timeout(Duration.ofMinutes(15))
                .header("Authorization", ADMIN_AUTHORIZATION)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          "POST " + uri + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }

  private Connection connect(String database) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:postgresql://"
            + pg.getProperty("taskgate.db.host")
            + ":"
            + pg.getProperty("taskgate.db.port")
            + "/"
            + database,
        pg.getProperty("taskgate.db.user"),
        pg.getProperty("taskgate.db.password"));
  }

  private void recreateDatabase() throws SQLException {
    String name = pg.getProperty("taskgate.db.name");
    if (!name.matches("[a-z_][a-z0-9_]*")) {
      throw new IllegalArgumentException("load.db.name: lower-case letters, digits, _; " + name);
    }
    try (Connection c = connect("postgres");
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
      s.execute("CREATE DATABASE " + name);
    }
  }

  /** Transactions committed in the load database so far (its statistics, by every session). */
  /**
   * {@code load.history} COMPLETED tasks that ended eight days ago (past the default retention of a
   * week), with the two audit rows a task leaves at the default audit level, stored straight into
   * PostgreSQL before the warm-up: the history that retention prunes while the runs flow.
   */
  private void seedHistory(String db, long n) throws SQLException {
    if (!db.equals("postgresql")) {
      throw new IllegalArgumentException("load.history seeds PostgreSQL only, not " + db);
    }
    long start = System.nanoTime();
    try (Connection c = connect(pg.getProperty("taskgate.db.name"));
        Statement s = c.createStatement()) {
      s.execute(
          "INSERT INTO taskgate_task (id, attempt, created_at, payload, queue, runs, scheduled_at,"
              + " status, type, updated_at, version) SELECT gen_random_uuid()::text, 1,"
              + " now() - interval '8 days' - g * interval '1 millisecond', '{}', 'default', 0,"
              + " now() - interval '8 days' - g * interval '1 millisecond', 'COMPLETED', '"
              + NoopTask.class.getName()
              + "', now() - interval '8 days' - g * interval '1 millisecond', 2"
              + " FROM generate_series(1, "
              + n
              + ") g");
      for (String[] change :
          new String[][] {{"NULL", "'QUEUED'", "0"}, {"'QUEUED'", "'COMPLETED'", "2"}}) {
        s.execute(
            "INSERT INTO taskgate_task_audit (id, at, attempt, from_status, task_id, task_version,"
                + " to_status) SELECT gen_random_uuid()::text, updated_at, 1, "
                + change[0]
                + ", id, "
                + change[2]
                + ", "
                + change[1]
                + " FROM taskgate_task WHERE status = 'COMPLETED'");
      }
      s.execute("ANALYZE taskgate_task");
      s.execute("ANALYZE taskgate_task_audit");
    }
    System.out.printf(
        Locale.ROOT,
        "Seeded %d ended tasks (8 days old) and their audit in %.1f s: %s%n",
        n,
        (System.nanoTime() - start) / 1e9,
        countRows());
  }

  private long commits() throws SQLException {
    try (Connection c = connect(pg.getProperty("taskgate.db.name"));
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")) {
      r.next();
      return r.getLong(1);
    }
  }

  /** The rows in the load database: tasks COMPLETED in all, audit rows in all. */
  private String countRows() throws SQLException {
    try (Connection c = connect(pg.getProperty("taskgate.db.name"));
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT (SELECT count(*) FROM taskgate_task WHERE status = 'COMPLETED'),"
                    + " (SELECT count(*) FROM taskgate_task_audit)")) {
      r.next();
      return "[pg: " + r.getLong(1) + " completed, " + r.getLong(2) + " audit]";
    }
  }

  private File loadWar() {
    File base = new File(required("load.war"));
    if (!base.isFile()) {
      throw new IllegalStateException(base + " is missing: build web-module first (mvn -am)");
    }
    File loadWar = out.resolve("taskgate-load.war").toFile();
    ShrinkWrap.create(ZipImporter.class, "taskgate.war")
        .importFrom(base)
        .as(WebArchive.class)
        .addPackage(NoopTask.class.getPackage())
        .addClass(io.taskgate.it.Conformance.class)
        .addAsResource(
            new org.jboss.shrinkwrap.api.asset.StringAsset(
                io.taskgate.load.app.LoadConfigSource.class.getName()),
            "META-INF/services/org.eclipse.microprofile.config.spi.ConfigSource")
        .as(ZipExporter.class)
        .exportTo(loadWar, true);
    return loadWar;
  }

  private static File serverConfig(String name) {
    return new File(required("load.serverConfig"), name);
  }

  private static String required(String name) {
    String value = System.getProperty(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException(
          "System property " + name + " is not set: run through `mvn -Pload` (src-test/pom.xml)");
    }
    return value;
  }

  /** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
  private static final double TICKS = 100.0;

  /** User + system CPU ticks the process has used so far (/proc), 0 where /proc is missing. */
  static long cpuTicks(long pid) {
    try {
      String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + pid + "/stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
    } catch (java.io.IOException | RuntimeException e) {
      return 0;
    }
  }

  /** CPU ticks used so far by every process named postgres on this machine. */
  static long postgresTicks() {
    long sum = 0;
    java.io.File[] procs = new java.io.File("/proc").listFiles();
    for (java.io.File proc : procs == null ? new java.io.File[0] : procs) {
      if (proc.getName().chars().allMatch(Character::isDigit)) {
        try {
          String comm = java.nio.file.Files.readString(proc.toPath().resolve("comm")).trim();
          if (comm.equals("postgres")) {
            sum += cpuTicks(Long.parseLong(proc.getName()));
          }
        } catch (java.io.IOException | RuntimeException e) {
          // gone meanwhile
        }
      }
    }
    return sum;
  }
}
