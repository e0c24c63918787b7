package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.it.cluster.Cluster;
import io.taskgate.it.ledger.Ledger;
import io.taskgate.store.schema.SchemaMigrator;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Two Payara Micro processes on one PostgreSQL database, joined in one data grid of their own
 * cluster name, the budgets in the grid ({@code taskgate.rate-limit.limiter=grid}). Each instance's
 * handler writes every start to its ledger file with the wall-clock time (both processes read the
 * same clock); the test merges the two. The steps run in order on the same two processes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterIT {
  private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(4);
  private static final String DB = "taskgate_cluster";
  private static final long INTERVAL_MICROS = 100_000; // the policy: 10 a second, burst 1

  /** Tasks of the 15-a-minute key dispatched to each instance. */
  private static final int QUARTERLY_PER_INSTANCE = 5;

  /** The keys of the budget test: 50 tasks a second for the cluster, fewer than it can run. */
  private static final int KEYS = 5;

  private final Path dir = Path.of("target", "cluster-it").toAbsolutePath();
  private final String clusterName = "taskgate-it-" + UUID.randomUUID();
  private final Map<String, Instance> instances = new HashMap<>();
  private final List<Process> started = new ArrayList<>();
  private File war;

  record Instance(String id, int port, Process process, Path ledger) {}

  @BeforeAll
  void twoInstances() throws Exception {
    MicroRuns.deleteTree(dir);
    Files.createDirectories(dir);
    MicroRuns.recreateDatabase(DB);
    war = war();
    // both at once, held at the schema's lock until both wait for it: then one migrates the new
    // database's schema while the other waits, then finds it done
    try (Connection holder = MicroRuns.connect(DB)) {
      try (Statement s = holder.createStatement()) {
        s.execute("SELECT pg_advisory_lock(" + SchemaMigrator.LOCK_KEY + ")");
      }
      launch("a", 28970);
      launch("b", 28971);
      Await.until(
          () -> waitingForTheSchemaLock(holder),
          waiting -> waiting == 2,
          BOOT_TIMEOUT,
          Duration.ofMillis(250),
          waiting -> waiting + " instances waited for the schema's lock, not 2");
      try (Statement s = holder.createStatement()) {
        s.execute("SELECT pg_advisory_unlock(" + SchemaMigrator.LOCK_KEY + ")");
      }
    }
    for (Instance instance : List.copyOf(instances.values())) {
      MicroRuns.awaitAnswering(
          instance.port(), instance.process(), log(instance.id(), 1), BOOT_TIMEOUT);
    }
  }

  /** How many sessions wait for the schema's advisory lock ({@link SchemaMigrator#LOCK_KEY}). */
  static long waitingForTheSchemaLock(Connection connection) throws Exception {
    try (Statement s = connection.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                    + " AND ((classid::bigint << 32) | objid::bigint) = "
                    + SchemaMigrator.LOCK_KEY)) {
      r.next();
      return r.getLong(1);
    }
  }

  @Test
  @Order(0)
  void twoInstancesStartingTogetherMigratedTheSchemaOnce() throws Exception {
    String a = Files.readString(log("a", 1), StandardCharsets.UTF_8);
    String b = Files.readString(log("b", 1), StandardCharsets.UTF_8);
    String migrated = "Taskgate migrated its schema on PostgreSQL from version 0 to 6";
    String found = "Taskgate's schema is at version 6 on PostgreSQL (up to date)";
    assertThat(List.of(a.contains(migrated), b.contains(migrated)))
        .as("which instance migrated")
        .containsExactlyInAnyOrder(true, false);
    assertThat(a.contains(migrated) ? b : a).contains(found);
    String waited = "Another instance is migrating Taskgate's schema: this one waits for it";
    assertThat(a).contains(waited);
    assertThat(b).contains(waited);
    try (Connection c = MicroRuns.connect(DB);
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT version, success FROM taskgate_schema_history WHERE version IS NOT NULL")) {
      List<String> rows = new ArrayList<>();
      while (r.next()) {
        rows.add(r.getString(1) + " " + r.getBoolean(2));
      }
      assertThat(rows)
          .containsExactlyInAnyOrder("1 true", "2 true", "3 true", "4 true", "5 true", "6 true");
    }
  }

  @AfterAll
  void stopBoth() throws InterruptedException {
    for (Process process : started) {
      if (process.isAlive()) {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  @Order(1)
  void bothInstancesSeeEachOtherAndShareTheGrid() throws Exception {
    JsonObject view = Http.json(Http.send("GET", api("a", "cluster"), null, "admin", "taskgate"));
    assertThat(view.getJsonObject("limiter").getString("mode")).isEqualTo("grid");
    assertThat(view.getJsonObject("limiter").getBoolean("degraded")).isFalse();
    List<String> alive = new ArrayList<>();
    for (var member : view.getJsonArray("instances")) {
      if (member.asJsonObject().getBoolean("alive")) {
        alive.add(member.asJsonObject().getString("id"));
      }
    }
    assertThat(alive).containsExactlyInAnyOrder("a", "b");
    assertThat(Files.readString(log("b", 1), StandardCharsets.UTF_8))
        .as("b's log: the data grid of two members")
        .containsPattern("Data Grid Size: 2|DG Size: 2|Members \\[2\\]");
  }

  /**
   * 1,000 tasks over 5 keys, half dispatched to each instance, 10 a second per key (fewer keys than
   * the instances' throughput, so that most tasks park even on a slow machine): every task starts
   * exactly once, and each key keeps to its rate over the run (one budget per key, not one per
   * instance); on the merged timeline the slots reserved for a key are the policy's interval apart
   * and no task starts before its slot. The most starts of a key in one second and how close two
   * starts came are printed, not checked: tasks whose slots passed while their instance was paused
   * start at once when it resumes (see docs/several-instances.md).
   */
  @Test
  @Order(2)
  void twoInstancesKeepOneBudgetPerKey() throws Exception {
    // one key at 15 a minute, one start every 4 s, half of its calls on each instance
    List<String> quarterly = new ArrayList<>(quarterly("a", QUARTERLY_PER_INSTANCE, "q-a"));
    quarterly.addAll(quarterly("b", QUARTERLY_PER_INSTANCE, "q-b"));
    List<String> ids = new ArrayList<>(batch("a", 500, KEYS, "conform-a", 5));
    ids.addAll(batch("b", 500, KEYS, "conform-b", 5));
    List<String> onlyOnB = batch("b", 30, 1, "only-b", "only-b", 5);

    // a's views count the tasks b has parked (as of b's last heartbeat) beside its own
    JsonObject page =
        Await.until(
            () -> rateLimits("a", "only-b"),
            p -> !p.getJsonArray("items").isEmpty(),
            Duration.ofSeconds(30),
            Duration.ofMillis(100),
            p -> "a's row of b's key only-b-0: " + p);
    JsonObject row = page.getJsonArray("items").getJsonObject(0);
    assertThat(row.getString("key")).isEqualTo("only-b-0");
    assertThat(row.getInt("parkedCount")).as(row.toString()).isPositive();
    assertThat(page.getJsonObject("totals").getInt("peerParkedTasks")).isPositive();
    JsonObject members =
        Http.json(Http.send("GET", api("a", "cluster"), null, "admin", "taskgate"));
    for (var member : members.getJsonArray("instances").getValuesAs(JsonObject.class)) {
      if (member.getString("id").equals("b")) {
        assertThat(member.getInt("parkedTasks")).as("b in a's view: " + member).isPositive();
      }
    }

    awaitCompleted(ids, Duration.ofMinutes(4));
    awaitCompleted(onlyOnB, Duration.ofMinutes(1));
    // a's statistics sum both instances' (b's as of its last heartbeat)
    int dispatched = ids.size() + onlyOnB.size();
    JsonObject stats =
        Await.until(
            () ->
                Http.json(
                    Http.send("GET", api("a", "stats?minutes=15"), null, "admin", "taskgate")),
            st -> sumOf(st.getJsonObject("total"), "completed") >= dispatched,
            Duration.ofSeconds(40),
            Duration.ofMillis(500),
            st -> "a's statistics of the last 15 minutes: " + st.getJsonObject("total"));
    assertThat(stats.getJsonArray("instances").getValuesAs(JsonString.class))
        .extracting(JsonString::getString)
        .containsExactly("a", "b");
    assertThat(sumOf(stats.getJsonObject("total"), "parked")).isPositive();

    Map<String, List<Start>> starts = startsById();
    Map<String, List<Start>> byKey = new HashMap<>();
    for (String id : ids) {
      assertThat(starts.get(id)).as("starts of " + id).hasSize(1);
      Start start = starts.get(id).get(0);
      byKey.computeIfAbsent(start.key(), k -> new ArrayList<>()).add(start);
    }
    assertThat(byKey).hasSize(KEYS);
    long worstEarlyMicros = 0;
    long minGapMicros = Long.MAX_VALUE;
    int maxInASecond = 0;
    int keysOnBoth = 0;
    double worstRatio = 0;
    for (var entry : byKey.entrySet()) {
      List<Start> key = entry.getValue();
      key.sort((x, y) -> Long.compare(x.micros(), y.micros()));
      if (key.stream().map(Start::instance).distinct().count() == 2) {
        keysOnBoth++;
      }
      long tat = Long.MIN_VALUE;
      for (int i = 0; i < key.size(); i++) {
        long at = key.get(i).micros();
        if (tat != Long.MIN_VALUE) {
          worstEarlyMicros = Math.max(worstEarlyMicros, tat - at);
          minGapMicros = Math.min(minGapMicros, at - key.get(i - 1).micros());
        }
        tat = Math.max(tat == Long.MIN_VALUE ? at : tat, at) + INTERVAL_MICROS;
        int j = i;
        while (j < key.size() && key.get(j).micros() <= at + 1_000_000) {
          j++;
        }
        maxInASecond = Math.max(maxInASecond, j - i);
      }
      long span = key.get(key.size() - 1).micros() - key.get(0).micros();
      double ratio = (key.size() - 1) * (double) INTERVAL_MICROS / Math.max(1, span);
      worstRatio = Math.max(worstRatio, ratio);
    }
    System.out.printf(
        "ClusterIT: 1000 tasks, 5 keys, %d keys started on both instances; rate per key at most"
            + " %.3f x the policy; closest two starts of a key %.1f ms apart; at most %d starts"
            + " of a key in one second (GCRA bound 11); latest start %.1f ms early on the"
            + " merged GCRA%n",
        keysOnBoth, worstRatio, minGapMicros / 1000.0, maxInASecond, worstEarlyMicros / 1000.0);
    for (String id : List.of("a", "b")) {
      JsonObject limiter =
          Http.json(Http.send("GET", api(id, "cluster"), null, "admin", "taskgate"))
              .getJsonObject("limiter");
      System.out.printf(
          "ClusterIT: %s's limiter: %d degradations, %d decisions taken locally%n",
          id,
          limiter.getJsonNumber("degradations").longValue(),
          limiter.getJsonNumber("localDecisions").longValue());
    }
    // every start of every key, on the merged timeline, within the policy at every instant
    Conformance.Run run = Conformance.run();
    Conformance.Policy policy = Conformance.Policy.of(10, Duration.ofSeconds(1), 1);
    for (var entry : byKey.entrySet()) {
      Conformance.Key key = run.key(entry.getKey(), policy);
      entry.getValue().forEach(start -> key.started(start.conformance()));
    }
    awaitCompleted(quarterly, Duration.ofMinutes(2));
    starts = startsById();
    Conformance.Key slow =
        run.key("quarterly", Conformance.Policy.of(15, Duration.ofMinutes(1), 1));
    List<Long> slowStarts = new ArrayList<>();
    for (String id : quarterly) {
      assertThat(starts.get(id)).as("starts of " + id).hasSize(1);
      Start start = starts.get(id).get(0);
      slow.started(start.conformance());
      slowStarts.add(start.micros());
    }
    slowStarts.sort(null);
    int mostIn32s = 0;
    for (int i = 0; i < slowStarts.size(); i++) {
      int j = i;
      while (j < slowStarts.size() && slowStarts.get(j) < slowStarts.get(i) + 32_000_000) {
        j++;
      }
      mostIn32s = Math.max(mostIn32s, j - i);
    }
    System.out.printf(
        "ClusterIT: the 15-a-minute key: at most %d starts in any 32 s (policy: 9)%n", mostIn32s);
    System.out.println("ClusterIT: " + run.assertConforms());
    assertThat(mostIn32s).as("starts of the 15-a-minute key in any 32 s").isLessThanOrEqualTo(9);
    assertThat(keysOnBoth).as("keys whose tasks started on both instances").isEqualTo(KEYS);
    // most were parked until a slot (the others were let through when they came): the slots are
    // what the check covers
    assertThat(assertSlotsConform(byKey)).as("tasks parked until a slot").isGreaterThan(600);
    // one budget per key: over the run each key keeps to its rate (two budgets would make 2x)
    assertThat(worstRatio).as("rate per key over the policy's").isLessThanOrEqualTo(1.01);
  }

  private static long sumOf(JsonObject counts, String name) {
    return counts.getJsonArray(name).getValuesAs(JsonNumber.class).stream()
        .mapToLong(JsonNumber::longValue)
        .sum();
  }

  /**
   * The merged timeline of reserved slots: for every key, the slots its parked tasks were given on
   * either instance are at least the policy's interval apart (GCRA with burst 1: one budget, not
   * one per instance), and no task starts before its slot.
   */
  private static int assertSlotsConform(Map<String, List<Start>> byKey) {
    int parked = 0;
    long earliestMicros = Long.MIN_VALUE;
    for (var entry : byKey.entrySet()) {
      List<Long> slots = new ArrayList<>();
      for (Start start : entry.getValue()) {
        if (start.slotMicros() >= 0) {
          slots.add(start.slotMicros());
          earliestMicros = Math.max(earliestMicros, start.slotMicros() - start.micros());
        }
      }
      slots.sort(null);
      for (int i = 1; i < slots.size(); i++) {
        assertThat(slots.get(i) - slots.get(i - 1))
            .as(entry.getKey() + ": reserved slots " + (i - 1) + " and " + i + " apart, µs")
            .isGreaterThanOrEqualTo(INTERVAL_MICROS - 1);
      }
      parked += slots.size();
    }
    System.out.printf(
        "ClusterIT: %d tasks parked until a slot; the earliest start %.3f ms before its slot%n",
        parked, earliestMicros / 1000.0);
    assertThat(earliestMicros)
        .as("how far a start came before its slot, µs")
        .isLessThanOrEqualTo(0);
    return parked;
  }

  /**
   * Instance a is killed with tasks queued, parked and running: b takes them over within the
   * instance timeout and a sweep or two, and finishes every one; only the attempts the kill cut
   * short run again.
   */
  /**
   * The job throttlers keep one state for both instances (in the grid): a mutex per order never
   * runs two steps of an order at once, whichever instance runs them, and a step waiting on one
   * instance starts soon after the other instance's step ends (it is woken, not left to its 30 s
   * recheck); a semaphore of 2 never has 3 running across both; a fixed window of 5 per 2 s lets at
   * most 5 start in each window, counting both instances' starts.
   */
  @Test
  @Order(3)
  void theJobThrottlersKeepOneStateAcrossTheInstances() throws Exception {
    define("a", "semaphore/cluster-news", "{\"maxCount\":2}");
    define("a", "fixed-window/cluster-api", "{\"limit\":5,\"interval\":\"PT2S\"}");
    for (String id : List.of("a", "b")) { // each instance's cached definitions
      Await.until(
          () -> Http.send("GET", api(id, "throttlers"), null, "admin", "taskgate").body(),
          body -> defined(body, "cluster-news") && defined(body, "cluster-api"),
          Duration.ofSeconds(10),
          Duration.ofMillis(100),
          body -> id + " knows the definitions: " + body);
    }
    List<String> ids = new ArrayList<>(throttled("a", "order", 12, 3, "steps-a", 250));
    ids.addAll(throttled("b", "order", 12, 3, "steps-b", 250));
    ids.addAll(throttled("a", "news", 10, 1, "news-a", 250));
    ids.addAll(throttled("b", "news", 10, 1, "news-b", 250));
    Await.earlyIn(Duration.ofSeconds(2));
    ids.addAll(throttled("a", "api", 8, 1, "api-a", 0));
    ids.addAll(throttled("b", "api", 7, 1, "api-b", 0));

    awaitCompleted(ids, Duration.ofMinutes(3));

    Map<String, List<Held>> byResource = new HashMap<>();
    Map<String, Integer> runsOf = new HashMap<>();
    for (Held run : held()) {
      byResource.computeIfAbsent(run.resource(), r -> new ArrayList<>()).add(run);
      runsOf.merge(run.taskId(), 1, Integer::sum);
    }
    assertThat(runsOf).as("each task ran once").hasSize(ids.size());
    assertThat(runsOf.values()).allMatch(n -> n == 1);
    long handOvers = 0;
    long longestHandOver = 0;
    for (int order = 0; order < 3; order++) {
      List<Held> steps = byResource.get("order-" + order);
      assertThat(steps).hasSize(8);
      steps.sort(Comparator.comparingLong(Held::start));
      for (int i = 1; i < steps.size(); i++) {
        Held before = steps.get(i - 1);
        Held next = steps.get(i);
        assertThat(next.start())
            .as("order-%d: %s then %s", order, before, next)
            .isGreaterThanOrEqualTo(before.end());
        if (!next.instance().equals(before.instance())) {
          handOvers++;
          longestHandOver = Math.max(longestHandOver, next.start() - before.end());
        }
      }
    }
    assertThat(handOvers).as("steps of an order handed over between the instances").isPositive();
    assertThat(longestHandOver)
        .as("µs from a step's end on one instance to the next step's start on the other")
        .isLessThan(5_000_000);
    List<Held> news = byResource.get("news");
    assertThat(news.stream().map(Held::instance).distinct()).containsExactlyInAnyOrder("a", "b");
    assertThat(mostAtOnce(news)).as("news sends running at once: %s", news).isEqualTo(2);
    Map<Long, Integer> perWindow = new HashMap<>();
    for (Held call : byResource.get("api")) {
      perWindow.merge(call.start() / 2_000_000, 1, Integer::sum);
    }
    assertThat(perWindow.values())
        .as("api calls per 2 s window: %s", perWindow)
        .allMatch(n -> n <= 5);
    assertThat(perWindow).hasSize(3);
  }

  /**
   * A concurrency limit of 2 per tenant over both instances: 3 tenants, 10 exports of each
   * dispatched to each instance. On the merged ledger no tenant ever has more than 2 running,
   * counting both instances' runs, at any start; every tenant reaches 2; the tenants run side by
   * side; and both instances run exports. Both instances list the limit in {@code /api/throttlers}.
   */
  @Test
  @Order(4)
  void aConcurrencyLimitHoldsForEachTenantAcrossTheInstances() throws Exception {
    List<String> ids = new ArrayList<>(throttled("a", "export", 30, 3, "export-a", 200));
    ids.addAll(throttled("b", "export", 30, 3, "export-b", 200));

    awaitCompleted(ids, Duration.ofMinutes(3));

    List<Held> exports = new ArrayList<>();
    Map<String, Integer> runsOf = new HashMap<>();
    for (Held run : held()) {
      if (ids.contains(run.taskId())) {
        exports.add(run);
        runsOf.merge(run.taskId(), 1, Integer::sum);
      }
    }
    assertThat(runsOf).as("each export ran once").hasSize(ids.size());
    assertThat(runsOf.values()).allMatch(n -> n == 1);
    for (int tenant = 0; tenant < 3; tenant++) {
      String resource = "tenant-" + tenant;
      List<Held> ofTenant = exports.stream().filter(r -> r.resource().equals(resource)).toList();
      assertThat(ofTenant).hasSize(20);
      assertThat(mostAtOnce(ofTenant))
          .as("%s's exports running at once, both instances: %s", resource, ofTenant)
          .isEqualTo(2);
    }
    assertThat(mostAtOnce(exports)).as("exports of every tenant running at once").isGreaterThan(2);
    assertThat(exports.stream().map(Held::instance).distinct()).containsExactlyInAnyOrder("a", "b");
    for (String id : List.of("a", "b")) {
      String body = Http.send("GET", api(id, "throttlers"), null, "admin", "taskgate").body();
      assertThat(body)
          .as("%s lists the limit", id)
          .contains("\"kind\":\"concurrency\"")
          .contains("Throttled$Export:{tenant}");
    }
  }

  /**
   * An upstream push-back on one instance holds the key back on both: the key's first call to
   * start, on whichever instance, is pushed back 3 s; nothing of the key starts on either instance
   * before then, the pushed-back call goes first after it (its attempt not counted), and the
   * reserved slots after it keep the key's spacing.
   */
  @Test
  @Order(4)
  void anUpstreamPushBackHoldsTheKeyBackOnEveryInstance() throws Exception {
    List<String> ids = new ArrayList<>(batch("a", 5, 1, "upstream", "push-a", -1));
    ids.addAll(batch("b", 5, 1, "upstream", "push-b", -1));

    awaitCompleted(ids, Duration.ofMinutes(1));

    List<Start> starts = new ArrayList<>();
    startsById().values().forEach(starts::addAll);
    starts.removeIf(start -> !start.key().equals("upstream-0"));
    starts.sort(Comparator.comparingLong(Start::micros));
    assertThat(starts).as("ten calls, the pushed-back one twice").hasSize(11);
    Conformance.Run run = Conformance.run();
    Conformance.Key key = run.key("upstream-0", Conformance.Policy.of(5, Duration.ofSeconds(1), 1));
    starts.forEach(start -> key.started(start.conformance()));
    System.out.println("ClusterIT: the push-back: " + run.assertConforms());
    Start pushed = starts.get(0);
    List<Start> after = starts.subList(1, starts.size());
    assertThat(after)
        .as("nothing of the key starts on either instance within the upstream's 3 s: %s", starts)
        .allSatisfy(
            start ->
                assertThat(start.micros()).isGreaterThanOrEqualTo(pushed.micros() + 2_950_000));
    assertThat(after.get(0).taskId())
        .as("the pushed-back call goes first")
        .isEqualTo(pushed.taskId());
    assertThat(after.get(0).attempt()).as("the pushed-back attempt did not count").isEqualTo(1);
    assertThat(after.stream().map(Start::instance).distinct()).containsExactlyInAnyOrder("a", "b");
    List<Long> slots =
        after.stream().map(Start::slotMicros).filter(slot -> slot >= 0).sorted().toList();
    assertThat(slots).as("the parked calls' slots: %s", starts).hasSizeGreaterThanOrEqualTo(8);
    for (int i = 1; i < slots.size(); i++) {
      assertThat(slots.get(i) - slots.get(i - 1))
          .as("slots after the push-back, 5 a second: %s", slots)
          .isGreaterThanOrEqualTo(199_000);
    }
  }

  /** A run of a throttled task in a ledger. */
  record Held(String taskId, String resource, long start, long end, String instance) {}

  private List<Held> held() throws IOException {
    List<Held> runs = new ArrayList<>();
    for (String id : List.of("a", "b")) {
      Path ledger = dir.resolve("ledger-" + id + ".txt");
      for (String line : Files.readAllLines(ledger, StandardCharsets.UTF_8)) {
        String[] f = line.split(" ");
        if (f.length == 6 && f[0].equals("held")) {
          runs.add(new Held(f[1], f[2], Long.parseLong(f[3]), Long.parseLong(f[4]), f[5]));
        }
      }
    }
    return runs;
  }

  /** Whether the throttlers' view {@code body} has throttler {@code id} defined. */
  private static boolean defined(String body, String id) {
    return Http.json(body).getJsonArray("throttlers").getValuesAs(JsonObject.class).stream()
        .anyMatch(t -> t.getString("id").equals(id) && t.getBoolean("defined"));
  }

  private static int mostAtOnce(List<Held> runs) {
    List<long[]> edges = new ArrayList<>();
    for (Held run : runs) {
      edges.add(new long[] {run.start(), 1});
      edges.add(new long[] {run.end(), -1});
    }
    edges.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
    int now = 0;
    int most = 0;
    for (long[] edge : edges) {
      now += (int) edge[1];
      most = Math.max(most, now);
    }
    return most;
  }

  private void define(String id, String path, String body) throws Exception {
    HttpResponse<String> response =
        Http.send("PUT", api(id, "throttlers/" + path), body, "admin", "taskgate");
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 299);
  }

  private List<String> quarterly(String id, int n, String prefix) throws Exception {
    return dispatched(id, "cluster-test/quarterly?n=" + n + "&key=quarterly&prefix=" + prefix, n);
  }

  private List<String> throttled(
      String id, String kind, int n, int orders, String prefix, int workMillis) throws Exception {
    return dispatched(
        id,
        "cluster-test/throttled?kind="
            + kind
            + "&n="
            + n
            + "&orders="
            + orders
            + "&prefix="
            + prefix
            + "&work="
            + workMillis,
        n);
  }

  /** The ids of the {@code n} tasks a test endpoint of instance {@code id} dispatched. */
  private List<String> dispatched(String id, String path, int n) throws Exception {
    return Http.batchIds(Http.send("POST", api(id, path), "", "admin", "taskgate"), n);
  }

  /**
   * One task key dispatched eight times at once, half on each instance: the database keeps one task
   * of the key (its unique key's row locked while a dispatch looks at it), and every answer names
   * it.
   */
  @Test
  @Order(4)
  void oneTaskKeyDispatchedOnBothInstancesAtOnceIsOneTask() throws Exception {
    String key = "unique-" + java.util.UUID.randomUUID();
    String type = java.net.URLEncoder.encode(Cluster.Job.class.getName(), StandardCharsets.UTF_8);
    String body = "{\"id\": \"" + key + "\", \"key\": \"k\", \"workMillis\": 1}";
    java.util.concurrent.ExecutorService threads =
        java.util.concurrent.Executors.newFixedThreadPool(8);
    try {
      java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
      List<java.util.concurrent.Future<HttpResponse<String>>> answers = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        String id = i % 2 == 0 ? "a" : "b";
        answers.add(
            threads.submit(
                () -> {
                  go.await();
                  return Http.send(
                      "POST",
                      api(id, "tasks/" + type + "?delay=PT1H&taskKey=" + key),
                      body,
                      "admin",
                      "taskgate");
                }));
      }
      go.countDown();
      java.util.Set<String> ids = new java.util.HashSet<>();
      for (var answer : answers) {
        HttpResponse<String> response = answer.get(60, TimeUnit.SECONDS);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        ids.add(Http.json(response).getString("id"));
      }
      assertThat(ids).as("every answer names one task").hasSize(1);
      try (Connection c = MicroRuns.connect(DB);
          java.sql.PreparedStatement s =
              c.prepareStatement("SELECT COUNT(*) FROM taskgate_task WHERE task_key = ?")) {
        s.setString(1, key);
        try (ResultSet r = s.executeQuery()) {
          r.next();
          assertThat(r.getLong(1)).as("tasks stored with the key").isEqualTo(1);
        }
      }
      HttpResponse<String> cancelled =
          Http.send(
              "DELETE", api("a", "tasks/" + ids.iterator().next()), null, "admin", "taskgate");
      assertThat(cancelled.statusCode()).isEqualTo(204);
    } finally {
      threads.shutdownNow();
    }
  }

  /**
   * A key paused on one instance holds its tasks on the other: once b has read the pause, the six
   * tasks of the key b is given stay QUEUED (waiting on b, holding no worker) while a free key's
   * tasks after them complete; a resume on a lets them run on b, and no start of the key comes
   * before the resume.
   */
  @Test
  @Order(4)
  void aKeyPausedOnOneInstanceIsHeldOnTheOtherUntilResumedThere() throws Exception {
    String key = "paused-0";
    HttpResponse<String> paused =
        Http.send(
            "POST",
            api("a", "pauses"),
            "{\"scope\": \"key\", \"name\": \"" + key + "\", \"reason\": \"upstream down\"}",
            "admin",
            "taskgate");
    assertThat(paused.statusCode()).as(paused.body()).isEqualTo(201);
    Await.until(
        () -> Http.send("GET", api("b", "pauses"), null, "admin", "taskgate").body(),
        body -> body.contains("\"name\":\"" + key + "\""),
        Duration.ofSeconds(10),
        body -> "b lists the pause: " + body);

    List<String> held = batch("b", 6, 1, "paused", "paused-job", 10);
    List<String> free = batch("b", 4, 1, "free", "free-job", 10);
    awaitCompleted(free, Duration.ofSeconds(30));
    Await.until(
        () -> Http.send("GET", api("b", "pauses"), null, "admin", "taskgate").body(),
        body -> body.contains("\"waitingHere\":6"),
        Duration.ofSeconds(20),
        body -> "the key's six tasks wait on b: " + body);
    assertThat(statuses(held)).containsExactly(Map.entry("QUEUED", 6L));

    Instant resumedAt = Instant.now();
    HttpResponse<String> resumed =
        Http.send("DELETE", api("a", "pauses?scope=key&name=" + key), null, "admin", "taskgate");
    assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(204);
    awaitCompleted(held, Duration.ofSeconds(30));

    List<Start> starts =
        startsById().values().stream()
            .flatMap(List::stream)
            .filter(start -> held.contains(start.taskId()))
            .toList();
    assertThat(starts).hasSize(6);
    assertThat(starts)
        .as("no start of the paused key before the resume")
        .allMatch(start -> start.micros() >= ChronoUnit.MICROS.between(Instant.EPOCH, resumedAt));
  }

  /**
   * A {@code @RateLimited} resource method whose limiter's scope is the cluster: five calls a
   * minute per tenant, eight calls alternating between the instances, five answered, three refused.
   */
  @Test
  @Order(4)
  void aClusterScopedLimiterKeepsOneBudgetAcrossTheInstances() throws Exception {
    int ok = 0;
    int refused = 0;
    for (int i = 0; i < 8; i++) {
      String id = i % 2 == 0 ? "a" : "b";
      HttpResponse<String> response =
          Http.send("GET", api(id, "cluster-test/limited/tenant-1"), null, "admin", "taskgate");
      if (response.statusCode() == 200) {
        ok++;
      } else {
        assertThat(response.statusCode()).as(id + ": " + response.body()).isEqualTo(429);
        assertThat(response.headers().firstValue("Retry-After")).isPresent();
        refused++;
      }
    }
    assertThat(ok).as("granted across both instances").isEqualTo(5);
    assertThat(refused).isEqualTo(3);
    HttpResponse<String> other =
        Http.send("GET", api("b", "cluster-test/limited/tenant-2"), null, "admin", "taskgate");
    assertThat(other.statusCode()).as("another tenant").isEqualTo(200);

    // a limit changed on one instance reaches the other within its 2 s refresh
    HttpResponse<String> put =
        Http.send(
            "PUT",
            api("a", "limiters/it-cluster"),
            "{\"permits\":8,\"period\":\"PT1M\",\"burst\":8}",
            "admin",
            "taskgate");
    assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
    Await.until(
        () ->
            Http.json(Http.send("GET", api("b", "limiters/it-cluster"), null, "admin", "taskgate")),
        view -> view.getInt("permits") == 8,
        Duration.ofSeconds(10),
        Duration.ofMillis(200),
        view -> "b's view of the changed limiter: " + view);
    int granted = 0;
    for (int i = 0; i < 10; i++) {
      String id = i % 2 == 0 ? "a" : "b";
      if (Http.send("GET", api(id, "cluster-test/limited/tenant-3"), null, "admin", "taskgate")
              .statusCode()
          == 200) {
        granted++;
      }
    }
    assertThat(granted).as("eight a minute now, across both").isEqualTo(8);
    assertThat(
            Http.send("DELETE", api("a", "limiters/it-cluster"), null, "admin", "taskgate")
                .statusCode())
        .isEqualTo(204);
  }

  @Test
  @Order(5)
  void aSurvivorFinishesTheTasksOfAKilledInstance() throws Exception {
    List<String> ids = parkedOnA(0);
    if (ids == null) {
      // a setup a loaded machine did not reach (the assertions below are not relaxed): what a
      // showed is printed, and the scene is set again with new keys once the first has drained
      ids = parkedOnA(1);
    }
    assertThat(ids)
        .as("a parked 200 tasks in one of two tries (ClusterIT: lines above)")
        .isNotNull();
    Map<String, Long> byStatus = statuses(ids);
    int parkedAtKill = overview("a").getInt("parkedTasks");
    // per key, the latest slot a had reserved: b reserves anything new after it
    Map<String, Long> reservedByA = new HashMap<>();
    for (JsonObject row :
        rateLimits("a", "kill-").getJsonArray("items").getValuesAs(JsonObject.class)) {
      reservedByA.put(
          row.getString("key"),
          ChronoUnit.MICROS.between(Instant.EPOCH, Instant.parse(row.getString("parkedUntil"))));
    }
    kill("a");
    long killedAt = System.nanoTime();
    // the running ones start again on b once a is dead: the instance timeout and a heartbeat
    awaitStartedOn("b", ids.subList(0, 2), Duration.ofSeconds(30));
    double takeover = (System.nanoTime() - killedAt) / 1e9;
    System.out.printf("ClusterIT: a killed with %s%n", byStatus);
    assertThat(byStatus.getOrDefault("QUEUED", 0L)).as("queued or parked at the kill").isPositive();

    awaitCompleted(ids, Duration.ofMinutes(2));
    double seconds = (System.nanoTime() - killedAt) / 1e9;
    Map<String, List<Start>> starts = startsById();
    int rerun = 0;
    int keptAhead = 0; // parked on b until the slot a had reserved
    int ranAtOnce = 0; // no slot of their own on b: let through at once
    int newSlots = 0;
    Map<String, List<Start>> onBByKey = new HashMap<>();
    for (String id : ids) {
      List<Start> of = starts.get(id);
      assertThat(of).as("starts of " + id).isNotEmpty();
      Start last = of.get(of.size() - 1);
      if (last.instance().equals("b")) {
        onBByKey.computeIfAbsent(last.key(), k -> new ArrayList<>()).add(last);
        long reserved = reservedByA.getOrDefault(last.key(), Long.MIN_VALUE);
        if (last.slotMicros() < 0) {
          ranAtOnce++;
        } else if (last.slotMicros() <= reserved) {
          keptAhead++;
        } else {
          newSlots++;
        }
      }
      if (of.size() > 1) {
        rerun++;
        assertThat(of.get(0).instance()).as("a re-run's first start").isEqualTo("a");
        assertThat(of.get(of.size() - 1).instance()).isEqualTo("b");
      }
    }
    // b holds every task that a had not finished: a task still a's ended on a, the others on b
    Map<String, String> owners = ownerById(ids);
    for (String id : ids) {
      List<Start> of = starts.get(id);
      assertThat(owners.get(id))
          .as("owner of " + id + ", started " + of)
          .isEqualTo(of.get(of.size() - 1).instance());
    }
    System.out.printf(
        "ClusterIT: a killed with %d parked; b ran its interrupted tasks again %.1f s after the"
            + " kill and finished all %d tasks %.1f s after it; %d ran again; on b %d waited for"
            + " the slot a had reserved, %d ran at once, %d got a new slot%n",
        parkedAtKill, takeover, ids.size(), seconds, rerun, keptAhead, ranAtOnce, newSlots);
    // instance timeout 3 s, heartbeat 1 s (the takeover runs with it), sweep 0.5 s; 2 s of slack
    // for two Payara processes on a loaded machine
    assertThat(takeover).as("seconds from the kill to the re-run on b").isLessThanOrEqualTo(7.0);
    // a parked task keeps the slot a reserved for it while that is to come: b does not pay for it
    // again (had it paid, every task a had parked would have waited for a new slot after a's last)
    assertThat(keptAhead).as("tasks b parked until the slots a had reserved").isPositive();
    // every start of the killed instance's keys, on a before the kill and on b after it, within
    // the policy: the grid keeps each key's chain of starts beside its slots through a's death, and
    // the tasks whose slots passed while nobody could run them got new ones
    Conformance.Run run = Conformance.run();
    Conformance.Policy policy = Conformance.Policy.of(10, Duration.ofSeconds(1), 1);
    for (String id : ids) {
      for (Start start : starts.get(id)) {
        run.key(start.key(), policy).started(start.conformance());
      }
    }
    System.out.println("ClusterIT: the kill: " + run.assertConforms());
    assertSlotsConform(onBByKey);
    assertThat(rerun).as("attempts cut short by the kill").isLessThanOrEqualTo(8);
  }

  /**
   * Sets the scene of the kill: 2 long tasks running on a (2 of the queue's 4 workers, so that the
   * other 2 claim and park the rest), then 120 tasks on each of 5 keys (slots for 12 s), until a
   * has parked 200 (slots 4 s ahead, beyond the takeover). Returns the ids, long ones first, or
   * null after printing what a and the database showed, once the try's tasks have drained.
   */
  private List<String> parkedOnA(int round) throws Exception {
    String keys = round == 0 ? "kill" : "kill-r" + round;
    List<String> ids = new ArrayList<>(batch("a", 2, 2, "long-r" + round, keys + "-long", 20_000));
    awaitStarted(ids, Duration.ofSeconds(60));
    ids.addAll(batch("a", 600, 5, keys, keys, 5));
    AtomicInteger most = new AtomicInteger();
    try {
      Await.until(
          () -> overview("a").getInt("parkedTasks"),
          parked -> most.accumulateAndGet(parked, Math::max) >= 200,
          Duration.ofSeconds(20),
          Duration.ofMillis(20),
          parked -> "tasks parked on a: " + parked);
      return ids;
    } catch (AssertionError notReached) {
      // printed below, with what the database shows
    }
    System.out.printf(
        "ClusterIT: try %d: a parked at most %d tasks within 20 s (200 wanted); now a %s, b %s;"
            + " tasks by status %s, by owner %s; a's limiter %s%n",
        round,
        most.get(),
        overview("a"),
        overview("b").getInt("parkedTasks"),
        statuses(ids),
        countBy("owner_instance", ids),
        limiter("a"));
    awaitCompleted(ids, Duration.ofMinutes(2));
    return null;
  }

  /** Instance a comes back under its identity while b runs long tasks: none of them runs twice. */
  @Test
  @Order(6)
  void aRestartedInstanceLeavesThePeersTasksAlone() throws Exception {
    List<String> running = batch("b", 4, 4, "restart", "restart", 8_000);
    awaitStarted(running, Duration.ofSeconds(60));
    if (instances.get("a").process().isAlive()) {
      kill("a"); // the kill test failed before its kill: this one stands on its own
    }
    start("a", 28970);
    awaitCompleted(running, Duration.ofMinutes(2));
    Map<String, List<Start>> starts = startsById();
    for (String id : running) {
      assertThat(starts.get(id)).as("starts of " + id).hasSize(1);
      assertThat(starts.get(id).get(0).instance()).isEqualTo("b");
    }
  }

  /**
   * Member b stops answering (SIGSTOP) while a dispatches: a's grid calls time out, a decides
   * locally at half of each key's rate and shows it in its cluster view; once b answers again
   * (SIGCONT), a's next calls go to the grid and its keys carry on without a burst.
   */
  @Test
  @Order(7)
  void aMemberThatStopsAnsweringTurnsTheOtherToItsShareOfTheRate() throws Exception {
    long pid = instances.get("b").process().pid();
    // a has served this user before (each setting is read once, and in a cluster Payara may look
    // an unset key up in the grid: the first login must not meet the stopped member)
    assertThat(limiter("a").getBoolean("degraded")).isFalse();
    assertThat(Http.get(URI.create("http://localhost:28970/health/ready")).statusCode())
        .isEqualTo(200);
    assertThat(Http.getText(URI.create("http://localhost:28970/metrics?scope=application")).body())
        .containsPattern("taskgate_rate_limit_grid_degraded\\{[^}]*instance=\"a\"[^}]*\\} 0");
    List<String> degradedIds;
    signal("STOP", pid);
    try {
      degradedIds = batch("a", 20, 2, "degraded", "degraded", 1);
      awaitCompleted(degradedIds, Duration.ofMinutes(1));
      JsonObject limiter = limiter("a");
      assertThat(limiter.getBoolean("degraded")).as(limiter.toString()).isTrue();
      assertThat(limiter.getInt("share")).isEqualTo(2);
      // health and metrics say so too
      JsonObject health = Http.readinessCheck("http://localhost:28970", "taskgate-rate-limiter");
      assertThat(health.getString("status")).isEqualTo("UP");
      // Payara may write a check's data values as strings
      assertThat(health.getJsonObject("data").get("degraded").toString())
          .as(health.toString())
          .contains("true");
      assertThat(health.getJsonObject("data").getString("instance")).isEqualTo("a");
      assertThat(
              Http.getText(URI.create("http://localhost:28970/metrics?scope=application")).body())
          .containsPattern("taskgate_rate_limit_grid_degraded\\{[^}]*instance=\"a\"[^}]*\\} 1");
    } finally {
      signal("CONT", pid);
    }
    List<String> afterIds = batch("a", 20, 2, "degraded", "resumed", 1);
    awaitCompleted(afterIds, Duration.ofMinutes(1));
    assertThat(limiter("a").getBoolean("degraded")).isFalse();

    Map<String, List<Start>> starts = startsById();
    for (String key : List.of("degraded-0", "degraded-1")) {
      List<Long> during = new ArrayList<>();
      List<Long> slots = new ArrayList<>();
      List<Long> all = new ArrayList<>();
      for (String id : degradedIds) {
        Start start = starts.get(id).get(0);
        if (start.key().equals(key)) {
          during.add(start.micros());
          if (start.slotMicros() >= 0) {
            slots.add(start.slotMicros());
          }
        }
      }
      for (String id : afterIds) {
        Start start = starts.get(id).get(0);
        if (start.key().equals(key)) {
          all.add(start.micros());
        }
      }
      all.addAll(during);
      during.sort(null);
      all.sort(null);
      // at half the rate: the slots the degraded limiter gave are 200 ms apart (at the full rate
      // 100 ms), and 10 starts of the key span 9 × 200 ms end to end. A start is written when its
      // handler runs, so the first one's dispatch delay (it met the grid's timeout and ran at
      // once, with no slot) may shorten the span: up to one interval of the share is allowed for
      // that, which still tells half the rate from the full one.
      slots.sort(null);
      assertThat(slots)
          .as(key + ": tasks parked until a slot while degraded")
          .hasSizeGreaterThan(5);
      for (int i = 1; i < slots.size(); i++) {
        assertThat(slots.get(i) - slots.get(i - 1))
            .as(key + ": degraded slots " + (i - 1) + " and " + i + " apart, µs")
            .isGreaterThanOrEqualTo(2 * INTERVAL_MICROS - 1);
      }
      assertThat(during.get(during.size() - 1) - during.get(0))
          .as(key + ": span of its starts while degraded, µs")
          .isGreaterThanOrEqualTo(8 * 2 * INTERVAL_MICROS);
      // and no burst when the grid is back: never more than the policy allows in one second
      for (int i = 0; i < all.size(); i++) {
        int j = i;
        while (j < all.size() && all.get(j) <= all.get(i) + 1_000_000) {
          j++;
        }
        assertThat(j - i)
            .as(key + ": starts in the second from start " + i)
            .isLessThanOrEqualTo(11);
      }
    }
  }

  /**
   * Both instances killed at once and started again, so the grid that held the budgets is gone: a
   * key that started its burst (3 a minute, 3 back to back) just before gets no second one after,
   * whether its budget was saved before the kill or its starts since the last save are read from
   * the task rows. Every start of the key, before and after, is one conformance run.
   */
  @Test
  @Order(8)
  void aWholeClusterKilledAndStartedAgainKeepsEachKeysBudget() throws Exception {
    for (String id : List.of("a", "b")) {
      if (!instances.get(id).process().isAlive()) {
        start(id, instances.get(id).port());
      }
    }
    List<String> ids = new ArrayList<>(hourly("a", 3, "h-a"));
    ids.addAll(hourly("b", 3, "h-b"));
    Await.until(
        () -> startsById().keySet().stream().filter(ids::contains).count(),
        n -> n >= 3,
        Duration.ofSeconds(30),
        Duration.ofMillis(100),
        n -> n + " of the hourly key's tasks started, 3 wanted");
    // the starts saved (within a second): the restore reads them back, not a fresh bucket
    Await.until(
        () -> savedBudgets("hourly"),
        n -> n == 1,
        Duration.ofSeconds(10),
        Duration.ofMillis(100),
        n -> n + " saved budgets of the hourly key, 1 wanted");
    kill("a");
    kill("b");
    Instant killed = Instant.now();
    launch("a", 28970);
    launch("b", 28971);
    for (String id : List.of("a", "b")) {
      MicroRuns.awaitAnswering(
          instances.get(id).port(), instances.get(id).process(), log(id, bootOf(id)), BOOT_TIMEOUT);
    }
    System.out.printf(
        "ClusterIT: the cluster answered again %.1f s after the kill%n",
        Duration.between(killed, Instant.now()).toMillis() / 1000.0);
    awaitCompleted(ids, Duration.ofMinutes(3));

    Map<String, List<Start>> starts = startsById();
    Conformance.Run run = Conformance.run();
    Conformance.Key key = run.key("hourly", Conformance.Policy.of(3, Duration.ofMinutes(1), 3));
    List<String> timeline = new ArrayList<>();
    for (String id : ids) {
      for (Start start : starts.get(id)) {
        key.started(start.conformance());
        timeline.add(
            Duration.between(killed, start.conformance().at()).toMillis()
                + " ms "
                + start.instance());
      }
    }
    timeline.sort(Comparator.comparingLong(t -> Long.parseLong(t.split(" ")[0])));
    System.out.println("ClusterIT: the hourly key's starts, from the kill: " + timeline);
    System.out.println("ClusterIT: the whole-cluster restart: " + run.assertConforms());
  }

  /** Rows of {@code key} in taskgate_rate_budget. */
  private static long savedBudgets(String key) throws Exception {
    try (Connection c = MicroRuns.connect(DB);
        PreparedStatement s =
            c.prepareStatement("SELECT COUNT(*) FROM taskgate_rate_budget WHERE rate_key = ?")) {
      s.setString(1, key);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return r.getLong(1);
      }
    }
  }

  private List<String> hourly(String id, int n, String prefix) throws Exception {
    return dispatched(
        id, "cluster-test/quarterly?n=" + n + "&key=hourly&kind=hourly&prefix=" + prefix, n);
  }

  private JsonObject rateLimits(String id, String key) throws Exception {
    return Http.json(
        Http.send(
            "GET", api(id, "rate-limits?throttled=true&key=" + key), null, "admin", "taskgate"));
  }

  private JsonObject limiter(String id) throws Exception {
    return Http.json(Http.send("GET", api(id, "cluster"), null, "admin", "taskgate"))
        .getJsonObject("limiter");
  }

  private static void signal(String signal, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start();
    assertThat(kill.waitFor()).as("kill -" + signal + " " + pid).isZero();
  }

  /** A start in a ledger; {@code slotMicros} the slot it was parked until, or -1 if none. */
  record Start(
      String taskId, String key, long micros, String instance, int attempt, long slotMicros) {
    /** This start as the conformance check takes it. */
    Conformance.Start conformance() {
      return new Conformance.Start(
          Instant.EPOCH.plus(micros, ChronoUnit.MICROS), taskId, instance + " attempt " + attempt);
    }
  }

  private Map<String, List<Start>> startsById() throws IOException {
    Map<String, List<Start>> starts = new HashMap<>();
    for (String id : List.of("a", "b")) {
      Path ledger = dir.resolve("ledger-" + id + ".txt");
      if (!Files.exists(ledger)) {
        continue;
      }
      for (String line : Files.readAllLines(ledger, StandardCharsets.UTF_8)) {
        String[] f = line.split(" ");
        if (f.length == 7 && f[0].equals("start")) {
          long slot = f[6].equals("-") ? -1 : Long.parseLong(f[6]);
          starts
              .computeIfAbsent(f[1], k -> new ArrayList<>())
              .add(new Start(f[1], f[2], Long.parseLong(f[3]), f[4], Integer.parseInt(f[5]), slot));
        }
      }
    }
    starts.values().forEach(l -> l.sort((x, y) -> Long.compare(x.micros(), y.micros())));
    return starts;
  }

  private void start(String id, int port) throws Exception {
    Instance instance = launch(id, port);
    Path log = dir.resolve(id + "-" + bootOf(id) + ".log");
    MicroRuns.awaitAnswering(port, instance.process(), log, BOOT_TIMEOUT);
  }

  /** The number of the last boot of {@code id} whose log exists. */
  private int bootOf(String id) {
    int boot = 1;
    while (Files.exists(dir.resolve(id + "-" + (boot + 1) + ".log"))) {
      boot++;
    }
    return boot;
  }

  /** Starts Payara Micro for {@code id}, without waiting for it to answer. */
  private Instance launch(String id, int port) throws Exception {
    Path config = Path.of(ItConfig.required("taskgate.serverConfig"));
    Properties properties = new Properties();
    try (var in = Files.newInputStream(config.resolve("postgresql.properties"))) {
      properties.load(in);
    }
    properties.setProperty("taskgate.db.name", DB);
    File props = dir.resolve("postgresql.properties").toFile();
    try (OutputStream out = Files.newOutputStream(props.toPath())) {
      properties.store(out, "the cluster test's database");
    }
    Path ledger = dir.resolve("ledger-" + id + ".txt");
    int boot = 1;
    while (Files.exists(dir.resolve(id + "-" + boot + ".log"))) {
      boot++;
    }
    Path log = dir.resolve(id + "-" + boot + ".log");
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Dtaskgate.examples.enabled=false",
            "-D" + Ledger.FILE + "=" + ledger,
            "-Dtaskgate.cluster.instance-id=" + id,
            "-Dtaskgate.cluster.heartbeat-interval=PT1S",
            "-Dtaskgate.cluster.instance-timeout=PT3S",
            "-Dtaskgate.sweep.interval=PT0.5S",
            "-Dtaskgate.rate-limit.limiter=grid",
            "-Dtaskgate.limiter.it-cluster.scope=cluster",
            // two Payara processes, PostgreSQL and the build share 2 cores here: at the start of
            // a 2,000-task burst the grid missed the default 50 ms and both instances decided
            // locally for a second (1.28x a key's rate in that run, as the README says of the
            // degraded mode); the budget this machine can keep
            "-Dtaskgate.rate-limit.grid-timeout=PT0.5S",
            "-jar",
            ItConfig.required("payara.microJar"),
            "--clustername",
            clusterName,
            "--port",
            "" + port,
            "--addlibs",
            ItConfig.required("taskgate.postgresqlJar"),
            "--systemproperties",
            props.getPath(),
            "--postbootcommandfile",
            config.resolve("datasource-postgresql.asadmin").toString(),
            "--deploy",
            war.getPath(),
            "--contextroot",
            "taskgate");
    assertThat(MicroRuns.taken(port)).as("port " + port + " is taken by another process").isFalse();
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    started.add(process);
    Instance instance = new Instance(id, port, process, ledger);
    instances.put(id, instance);
    return instance;
  }

  private Path log(String id, int boot) {
    return dir.resolve(id + "-" + boot + ".log");
  }

  /** {@code kill -9}. */
  private void kill(String id) throws InterruptedException {
    Process process = instances.get(id).process();
    process.destroyForcibly();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
  }

  private URI api(String id, String path) {
    return URI.create("http://localhost:" + instances.get(id).port() + "/taskgate/api/" + path);
  }

  private List<String> batch(String id, int n, int keys, String prefix, int workMillis)
      throws Exception {
    return batch(id, n, keys, "key", prefix, workMillis);
  }

  private List<String> batch(
      String id, int n, int keys, String keyPrefix, String prefix, int workMillis)
      throws Exception {
    return dispatched(
        id,
        "cluster-test/batch?n="
            + n
            + "&keys="
            + keys
            + "&keyPrefix="
            + keyPrefix
            + "&prefix="
            + prefix
            + "&work="
            + workMillis,
        n);
  }

  private void awaitStartedOn(String instance, List<String> ids, Duration timeout)
      throws Exception {
    Await.until(
        () -> {
          Map<String, List<Start>> starts = startsById();
          return ids.stream()
              .allMatch(
                  id ->
                      starts.getOrDefault(id, List.of()).stream()
                          .anyMatch(start -> start.instance().equals(instance)));
        },
        Boolean::booleanValue,
        timeout,
        Duration.ofMillis(50),
        seen -> "tasks started on " + instance + ": " + ids);
  }

  private JsonObject overview(String id) throws Exception {
    return Http.json(Http.send("GET", api(id, "overview"), null, "admin", "taskgate"));
  }

  private void awaitStarted(List<String> ids, Duration timeout) throws Exception {
    Await.until(
        () -> startsById().keySet().containsAll(ids),
        Boolean::booleanValue,
        timeout,
        Duration.ofMillis(50),
        seen -> "tasks started: " + ids);
  }

  /** Waits until every task is COMPLETED in the database; fails at once on a lost one. */
  private static void awaitCompleted(List<String> ids, Duration timeout) throws Exception {
    Await.until(
        () -> {
          Map<String, Long> byStatus = statuses(ids);
          long known = byStatus.values().stream().mapToLong(Long::longValue).sum();
          assertThat(known).as("acknowledged tasks in the database").isEqualTo(ids.size());
          return byStatus;
        },
        byStatus -> byStatus.getOrDefault("COMPLETED", 0L) == ids.size(),
        timeout,
        Duration.ofMillis(250),
        byStatus -> "all " + ids.size() + " tasks completed: " + byStatus);
  }

  private static Map<String, Long> statuses(List<String> ids) throws Exception {
    return countBy("status", ids);
  }

  /** The owner of each of the tasks {@code ids}, in the database. */
  private static Map<String, String> ownerById(List<String> ids) throws Exception {
    Map<String, String> owners = new HashMap<>();
    try (Connection connection = MicroRuns.connect(DB);
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT id, owner_instance FROM taskgate_task WHERE id = ANY (?)")) {
      query.setArray(1, connection.createArrayOf("varchar", ids.toArray()));
      try (ResultSet rows = query.executeQuery()) {
        while (rows.next()) {
          owners.put(rows.getString(1), rows.getString(2));
        }
      }
    }
    return owners;
  }

  /** The tasks {@code ids} counted by a column of theirs, in the database. */
  private static Map<String, Long> countBy(String column, List<String> ids) throws Exception {
    Map<String, Long> counts = new HashMap<>();
    try (Connection connection = MicroRuns.connect(DB);
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT "
                    + column
                    + ", count(*) FROM taskgate_task WHERE id = ANY (?) GROUP BY "
                    + column)) {
      query.setArray(1, connection.createArrayOf("varchar", ids.toArray()));
      try (ResultSet rows = query.executeQuery()) {
        while (rows.next()) {
          counts.put(rows.getString(1), rows.getLong(2));
        }
      }
    }
    return counts;
  }

  private File war() {
    File file = dir.resolve("taskgate.war").toFile();
    ShrinkWrap.create(ZipImporter.class, "taskgate.war")
        .importFrom(new File(ItConfig.required("taskgate.war")))
        .as(WebArchive.class)
        .addPackage(Cluster.class.getPackage())
        .addPackage(Ledger.class.getPackage())
        .as(ZipExporter.class)
        .exportTo(file, true);
    return file;
  }
}
