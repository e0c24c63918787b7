package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.it.crash.Crash;
import io.taskgate.it.ledger.Ledger;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Payara Micro killed with {@code kill -9}, on embedded H2 (kept where the README's restart recipe
 * keeps it) and on PostgreSQL: a task whose dispatch returned is never lost, a task whose outcome
 * was stored never runs again, only the attempts cut short run again (marked as interrupted), and
 * no handler runs before the application's own initialisation after a restart. The handler writes
 * each start to a ledger file before it works; the kernel keeps those writes when the process is
 * killed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrashIT {
  private static final int PORT = 28960;
  private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(4);
  private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(3);
  private static final String PG_DATABASE = "taskgate_crash";
  private static final int STREAM_TASKS = 10_000;
  private static final int STREAM_KEYS = 250;
  private static final int KILL_AFTER = 5_000;

  private final Path dir = Path.of("target", "crash-it").toAbsolutePath();
  private Process current;

  @AfterEach
  void killLeftover() throws InterruptedException {
    if (current != null && current.isAlive()) {
      kill(current);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"h2", "postgresql"})
  void acknowledgedTasksSurviveKillNineAndOnlyInterruptedAttemptsRunAgain(String db)
      throws Exception {
    Path run = dir.resolve(db);
    MicroRuns.deleteTree(run);
    Files.createDirectories(run);
    Path ledger = run.resolve("ledger.txt");
    File war = war(run);
    if (db.equals("postgresql")) {
      MicroRuns.recreateDatabase(PG_DATABASE);
    }

    // (a) single dispatches and a batch due in 90 s (still waiting at the kill: the stream takes
    // 30 to 45 s on embedded H2 on a loaded two-core machine), then (b) a stream of dispatches over
    // 250 keys, killed right after the dispatch calls returned: queued, parked, delayed and running
    // tasks
    mark(ledger, "boot 1");
    Process server = start(db, run, war, ledger, "boot-1.log");
    List<String> acknowledged = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      acknowledged.add(dispatch("{\"id\":\"a-" + i + "\",\"workMillis\":1}", ""));
    }
    List<String> delayed = batch(20, "a-batch", "PT90S");
    acknowledged.addAll(delayed);
    List<String> streamed = streamAndKill(server);
    Map<String, Integer> startsAtKill = starts(ledger);
    assertThat(delayed)
        .as("the delayed batch had not started at the kill")
        .noneMatch(startsAtKill::containsKey);

    // rows a restart cannot schedule, as an earlier release could store them (PostgreSQL only)
    List<String> unschedulable = db.equals("postgresql") ? storeUnschedulable() : List.of();

    mark(ledger, "boot 2");
    server = start(db, run, war, ledger, "boot-2.log");
    try {
      acknowledged.addAll(streamed);
      awaitCompleted(acknowledged);
      // every start of every key, before and after the kill, within the key's policy, as one run:
      // the restart carries each key's budget over
      System.out.printf("CrashIT %s: %s%n", db, conformance(ledger).assertConforms());
      for (String id : unschedulable) {
        HttpResponse<String> task = Http.send("GET", api("tasks/" + id), null, "admin", "taskgate");
        JsonObject json = Http.json(task);
        assertThat(json.getString("status")).as(task.body()).isEqualTo("FAILED");
        assertThat(json.getString("lastError")).startsWith("cannot be scheduled: ");
      }

      // (c) only attempts cut short by the kill ran again, and none before the app initialised
      Map<String, Integer> starts = starts(ledger);
      List<String> rerun = new ArrayList<>();
      for (String id : acknowledged) {
        int count = starts.getOrDefault(id, 0);
        assertThat(count).as("starts of task " + id).isGreaterThanOrEqualTo(1);
        if (count > 1) {
          rerun.add(id);
        }
      }
      for (String id : rerun) {
        assertThat(history(id))
            .as("task " + id + " ran " + starts.get(id) + " times")
            .anyMatch(detail -> detail.startsWith("interrupted: attempt "));
      }
      assertThat(rerun.size()).as("re-runs").isLessThanOrEqualTo(64);
      assertHandlersStartedAfterInitialisation(ledger);
      System.out.printf(
          "CrashIT %s: %d acknowledged (%d in the stream before the kill), 0 lost, %d ran again"
              + " after the kill (interrupted attempts)%n",
          db, acknowledged.size(), streamed.size(), rerun.size());
    } finally {
      stop(server);
    }
  }

  @Test
  void aMutexHeldByAKilledTaskAndAWindowsCountsSurviveKillNine() throws Exception {
    Path run = dir.resolve("throttlers");
    MicroRuns.deleteTree(run);
    Files.createDirectories(run);
    Path ledger = run.resolve("ledger.txt");
    File war = war(run);

    mark(ledger, "boot 1");
    Process server = start("h2", run, war, ledger, "boot-1.log");
    HttpResponse<String> defined =
        Http.send(
            "PUT",
            api("throttlers/sliding-window/crash-window"),
            "{\"limit\":3,\"interval\":\"PT10M\",\"buckets\":10}",
            "admin",
            "taskgate");
    assertThat(defined.statusCode()).as(defined.body()).isEqualTo(200);
    List<String> windowed = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      windowed.add(dispatchOf("WindowProbe", "{\"id\":\"w-" + i + "\"}"));
    }
    String holder =
        dispatchOf("OrderProbe", "{\"id\":\"o-1\",\"orderId\":\"7\",\"workMillis\":4000}");
    Await.until(
        () ->
            ledgerHas(ledger, " o-1 1")
                && ledgerHas(ledger, " w-0 1")
                && ledgerHas(ledger, " w-1 1")
                && ledgerHas(ledger, " w-2 1"),
        Duration.ofMinutes(1),
        () -> "the holder and the window's three did not start");
    kill(server);

    mark(ledger, "boot 2");
    server = start("h2", run, war, ledger, "boot-2.log");
    try {
      String next = dispatchOf("OrderProbe", "{\"id\":\"o-2\",\"orderId\":\"7\",\"workMillis\":1}");
      String fourth = dispatchOf("WindowProbe", "{\"id\":\"w-3\"}");
      awaitStatus(next, "COMPLETED");
      awaitStatus(holder, "COMPLETED");

      List<String> afterBoot2 = linesAfter(ledger, "boot 2");
      int holderEnd = indexOf(afterBoot2, "end " + holder + " o-1");
      int nextStart = indexOf(afterBoot2, "start " + next + " o-2");
      assertThat(holderEnd)
          .as("the killed holder ran again and ended in boot 2: %s", afterBoot2)
          .isGreaterThanOrEqualTo(0);
      assertThat(nextStart)
          .as("the order's next step started only after the killed holder ended: %s", afterBoot2)
          .isGreaterThan(holderEnd);

      JsonObject window =
          Http.json(
              Http.send(
                  "GET", api("throttlers/sliding-window/crash-window"), null, "admin", "taskgate"));
      assertThat(window.getInt("inInterval")).as(window.toString()).isEqualTo(3);
      assertThat(window.getString("nextOpening", null)).isNotNull();
      assertThat(taskStatus(fourth)).isEqualTo("QUEUED");
      assertThat(afterBoot2).noneMatch(line -> line.endsWith(" w-3 1"));
      System.out.printf(
          "CrashIT throttlers: the mutex of a task killed while it held it was kept until it"
              + " ran again; the window's 3 starts were read back, its fourth waits%n");
    } finally {
      stop(server);
    }
    for (String id : windowed) {
      assertThat(starts(ledger).get(id)).as("starts of " + id).isEqualTo(1);
    }
  }

  private static String dispatchOf(String type, String body) throws Exception {
    HttpResponse<String> response =
        Http.send("POST", api("tasks/" + type), body, "admin", "taskgate");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
    return Http.json(response).getString("id");
  }

  private static String taskStatus(String id) throws Exception {
    return Http.json(Http.send("GET", api("tasks/" + id), null, "admin", "taskgate"))
        .getString("status");
  }

  private static void awaitStatus(String id, String status) throws Exception {
    Await.until(
        () -> taskStatus(id),
        status::equals,
        Duration.ofMinutes(2),
        seen -> "task " + id + " is " + seen + ", not " + status);
  }

  private static boolean ledgerHas(Path ledger, String ending) {
    try {
      return Files.readAllLines(ledger, StandardCharsets.UTF_8).stream()
          .anyMatch(line -> line.startsWith("start ") && line.endsWith(ending));
    } catch (IOException e) {
      return false;
    }
  }

  private static List<String> linesAfter(Path ledger, String mark) throws IOException {
    List<String> lines = Files.readAllLines(ledger, StandardCharsets.UTF_8);
    return lines.subList(lines.lastIndexOf(mark) + 1, lines.size());
  }

  private static int indexOf(List<String> lines, String prefix) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith(prefix)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * 8 threads dispatch over 250 keys; the server is killed once 5,000 were acknowledged. Returns
   * every dispatch acknowledged before the kill.
   */
  private List<String> streamAndKill(Process server) throws Exception {
    List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger next = new AtomicInteger();
    AtomicBoolean killed = new AtomicBoolean();
    ExecutorService threads = Executors.newFixedThreadPool(8);
    for (int t = 0; t < 8; t++) {
      threads.execute(
          () -> {
            int i;
            while (!killed.get() && (i = next.getAndIncrement()) < STREAM_TASKS) {
              String body =
                  "{\"id\":\"b-"
                      + i
                      + "\",\"key\":\"k"
                      + (i % STREAM_KEYS)
                      + "\",\"workMillis\":5}";
              try {
                acknowledged.add(dispatch(body, ""));
              } catch (Exception | AssertionError e) {
                return; // the server is gone: this one was not acknowledged
              }
            }
          });
    }
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (acknowledged.size() < KILL_AFTER && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    kill(server);
    killed.set(true);
    threads.shutdown();
    assertThat(threads.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
    assertThat(acknowledged.size()).as("acknowledged before the kill").isGreaterThan(100);
    return new ArrayList<>(acknowledged);
  }

  private Process start(String db, Path run, File war, Path ledger, String logName)
      throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dtaskgate.examples.enabled=false",
                "-D" + Ledger.FILE + "=" + ledger,
                "-Dtaskgate.h2.dir=" + run.resolve("data")));
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
        properties.store(out, "the crash test's database");
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
    Path log = run.resolve(logName);
    Process server =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    current = server;
    MicroRuns.awaitAnswering(PORT, server, log, BOOT_TIMEOUT);
    return server;
  }

  /** {@code kill -9}: the process gets no chance to write anything more. */
  private static void kill(Process server) throws InterruptedException {
    server.destroyForcibly();
    assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
  }

  private static void stop(Process server) throws InterruptedException {
    server.destroy();
    if (!server.waitFor(60, TimeUnit.SECONDS)) {
      server.destroyForcibly().waitFor();
    }
  }

  private static String dispatch(String body, String query) throws Exception {
    HttpResponse<String> response =
        Http.send("POST", api("tasks/Probe" + query), body, "admin", "taskgate");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
    return Http.json(response).getString("id");
  }

  private static List<String> batch(int n, String prefix, String delay) throws Exception {
    HttpResponse<String> response =
        Http.send(
            "POST",
            api("crash/batch?n=" + n + "&prefix=" + prefix + "&delay=" + delay),
            "",
            "admin",
            "taskgate");
    return Http.batchIds(response, n);
  }

  /** Waits until every task is COMPLETED; fails at once on one the store does not know. */
  private static Map<String, String> awaitCompleted(List<String> ids) throws Exception {
    Set<String> waiting = new HashSet<>(ids);
    for (String id : ids) {
      HttpResponse<String> task = Http.send("GET", api("tasks/" + id), null, "admin", "taskgate");
      assertThat(task.statusCode()).as("acknowledged task " + id + " was lost").isEqualTo(200);
    }
    Map<String, String> completed = new HashMap<>();
    long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
    while (!waiting.isEmpty()) {
      for (int page = 0; ; page++) {
        HttpResponse<String> response =
            Http.send(
                "GET",
                api("tasks?type=Probe&status=COMPLETED&size=500&page=" + page),
                null,
                "admin",
                "taskgate");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonArray items = Http.json(response).getJsonArray("items");
        for (JsonValue item : items) {
          String id = item.asJsonObject().getString("id");
          completed.put(id, "COMPLETED");
          waiting.remove(id);
        }
        if (items.size() < 500) {
          break;
        }
      }
      if (waiting.isEmpty()) {
        break;
      }
      if (System.nanoTime() > deadline) {
        String sample = waiting.iterator().next();
        throw new AssertionError(
            waiting.size()
                + " acknowledged tasks did not complete, e.g. "
                + Http.send("GET", api("tasks/" + sample), null, "admin", "taskgate").body());
      }
      Thread.sleep(500);
    }
    completed.keySet().retainAll(new HashSet<>(ids));
    return completed;
  }

  private static List<String> history(String id) throws Exception {
    HttpResponse<String> response = Http.send("GET", api("tasks/" + id), null, "admin", "taskgate");
    List<String> details = new ArrayList<>();
    for (JsonValue entry : Http.json(response).getJsonArray("history")) {
      JsonObject change = entry.asJsonObject();
      details.add(change.getString("detail", ""));
    }
    return details;
  }

  /** Starts per task id in the ledger. */
  private static Map<String, Integer> starts(Path ledger) throws IOException {
    Map<String, Integer> starts = new ConcurrentHashMap<>();
    for (String line : Files.readAllLines(ledger, StandardCharsets.UTF_8)) {
      if (line.startsWith("start ")) {
        starts.merge(line.split(" ")[1], 1, Integer::sum);
      }
    }
    return starts;
  }

  /** The probes' starts by key (20 a second, 5 back to back), one run across the kill. */
  private static Conformance.Run conformance(Path ledger) throws IOException {
    Conformance.Run run = Conformance.run();
    Conformance.Policy policy = Conformance.Policy.of(20, Duration.ofSeconds(1), 5);
    for (String line : Files.readAllLines(ledger, StandardCharsets.UTF_8)) {
      String[] f = line.split(" ");
      if (f.length == 6 && f[0].equals("start") && !f[4].equals("-")) {
        run.key(f[4], policy)
            .started(
                new Conformance.Start(
                    Instant.EPOCH.plus(Long.parseLong(f[5]), ChronoUnit.MICROS),
                    f[1],
                    "attempt " + f[3]));
      }
    }
    return run;
  }

  /** In every boot, the application's initialisation is in the ledger before any start. */
  private static void assertHandlersStartedAfterInitialisation(Path ledger) throws IOException {
    String boot = null;
    boolean initialised = false;
    for (String line : Files.readAllLines(ledger, StandardCharsets.UTF_8)) {
      if (line.startsWith("boot ")) {
        boot = line;
        initialised = false;
      } else if (line.startsWith("initialized ")) {
        initialised = true;
      } else if (line.startsWith("start ")) {
        assertThat(initialised)
            .as("in " + boot + " a handler started before the application initialised: " + line)
            .isTrue();
      }
    }
  }

  private static void mark(Path ledger, String line) throws IOException {
    Files.writeString(
        ledger,
        line + "\n",
        StandardCharsets.UTF_8,
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }

  private static URI api(String path) {
    return URI.create("http://localhost:" + PORT + "/taskgate/api/" + path);
  }

  private static File war(Path run) {
    File war = run.resolve("taskgate.war").toFile();
    ShrinkWrap.create(ZipImporter.class, "taskgate.war")
        .importFrom(new File(ItConfig.required("taskgate.war")))
        .as(WebArchive.class)
        .addPackage(Crash.class.getPackage())
        .addPackage(Ledger.class.getPackage())
        .as(ZipExporter.class)
        .exportTo(war, true);
    return war;
  }

  /**
   * Two tasks stored behind the engine's back: one due in the year 99999, one recurring series
   * whose recurrence cannot be read; returns their ids.
   */
  private static List<String> storeUnschedulable() throws Exception {
    String far = java.util.UUID.randomUUID().toString();
    String garbled = java.util.UUID.randomUUID().toString();
    try (Connection connection = MicroRuns.connect(PG_DATABASE);
        Statement statement = connection.createStatement()) {
      String columns =
          "INSERT INTO taskgate_task (id, type, payload, status, queue, task_key, scheduled_at,"
              + " attempt, last_error, recurrence, runs, created_at, updated_at, version) VALUES ";
      String type = Crash.Probe.class.getName();
      statement.execute(
          columns
              + "('"
              + far
              + "', '"
              + type
              + "', '{\"id\":\"far\",\"workMillis\":1}', 'QUEUED', 'default', NULL,"
              + " '99999-01-01 00:00:00+00', 0, NULL, NULL, 0, now(), now(), 0)");
      statement.execute(
          columns
              + "('"
              + garbled
              + "', '"
              + type
              + "', '{\"id\":\"garbled\",\"workMillis\":1}', 'QUEUED', 'default', NULL,"
              + " now() - interval '1 minute', 0, NULL, 'every:??', 0, now(), now(), 0)");
    }
    return List.of(far, garbled);
  }
}
