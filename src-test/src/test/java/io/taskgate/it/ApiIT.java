package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.PauseScope;
import io.taskgate.api.TaskDispatcher;
import io.taskgate.api.TaskReceipt;
import io.taskgate.api.TaskStatus;
import io.taskgate.api.ThrottlingManager;
import io.taskgate.engine.admin.TaskMaintenance;
import io.taskgate.engine.throttle.RateLimitReads;
import io.taskgate.engine.throttle.jobs.JobThrottlers;
import io.taskgate.it.engine.GatedTasks;
import io.taskgate.it.engine.GatedTasks.Paced;
import io.taskgate.it.engine.ParkingNotesOn;
import io.taskgate.it.engine.Probe;
import io.taskgate.it.engine.Tasks.Doomed;
import io.taskgate.it.engine.Tasks.Echo;
import io.taskgate.it.engine.TestConfigSource;
import io.taskgate.it.engine.ThrottledTasks;
import io.taskgate.it.engine.ThrottledTasks.Newsletter;
import io.taskgate.it.engine.WatchedTasks.Watched;
import io.taskgate.store.TaskStore;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.File;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The throttled view's REST API on Payara Micro: {@code /api/rate-limits} (rows, filters, sorting,
 * paging, pacing), {@code /api/overview}, {@code /api/events} (server-sent events), the task views'
 * throttling fields, the roles, bad parameters, the session cookie of the pages, and the metrics
 * and health endpoints. Tests run in the server (so they can dispatch and look at the parked tasks)
 * and call the API over HTTP. Each uses keys of its own and cancels what it parked.
 */
@ExtendWith(ArquillianExtension.class)
class ApiIT {
  private static final String ADMIN = "admin";
  private static final String ADMIN_PASSWORD = "taskgate";
  private static final String VIEWER = TestConfigSource.VIEWER;
  private static final String VIEWER_PASSWORD = TestConfigSource.VIEWER_PASSWORD;
  private static final String WATCHED = Watched.class.getName();
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  /** Where the deployment puts the dashboard and the alerting rules of server-config. */
  private static final String MONITORING = "it-monitoring/";

  @ArquillianResource URL baseUrl;

  @Inject TaskDispatcher dispatcher;
  @Inject RateLimitReads parkingLot;
  @Inject TaskStore store;
  @Inject io.taskgate.store.TaskQueries queries;
  @Inject Probe probe;
  @Inject ThrottlingManager manager;
  @Inject JobThrottlers throttlers;
  @Inject io.taskgate.engine.schedule.Retention retention;
  @Inject TaskMaintenance maintenance;

  private final List<UUID> dispatched = new ArrayList<>();

  @Deployment
  static WebArchive taskgateWar() {
    File config = new File(ItConfig.required("taskgate.serverConfig"));
    return EngineIT.taskgateWar(List.of(ParkingNotesOn.class))
        .addAsResource(new File(config, "grafana/taskgate.json"), MONITORING + "taskgate.json")
        .addAsResource(
            new File(config, "prometheus/taskgate-rules.yml"), MONITORING + "taskgate-rules.yml");
  }

  @AfterEach
  void cancelWhatIsStillQueued() {
    for (UUID id : dispatched) {
      store
          .find(id)
          .filter(t -> t.status() == TaskStatus.QUEUED)
          .ifPresent(t -> dispatcher.cancel(id));
    }
  }

  // ---- /api/rate-limits

  @Test
  void aThrottledKeyAppearsWithItsNextSlotParkedCountAndPolicy() throws Exception {
    String key = key("row");
    List<TaskReceipt> receipts = watch(key, 3); // one runs, two park at +10 and +20 minutes
    awaitParked(receipts.get(1).taskId(), receipts.get(2).taskId());
    // two workers may park them in either order: the later slot is +20 minutes
    Instant lastParked =
        Stream.of(receipts.get(1), receipts.get(2))
            .map(r -> parkingLot.parkedTask(r.taskId()).orElseThrow().slot())
            .max(Instant::compareTo)
            .orElseThrow();

    JsonObject page = getJson("rate-limits?type=Watched&key=" + encode(key), VIEWER);

    assertThat(page.getInt("total")).isEqualTo(1);
    assertThat(page.getInt("page")).isZero();
    assertThat(page.getInt("size")).isEqualTo(50);
    JsonObject row = page.getJsonArray("items").getJsonObject(0);
    assertThat(row.getString("taskType")).isEqualTo(WATCHED);
    assertThat(row.getString("key")).isEqualTo(key);
    assertThat(row.getBoolean("throttled")).isTrue();
    assertThat(row.getInt("parkedCount")).isEqualTo(2);
    assertThat(Instant.parse(row.getString("parkedUntil"))).isEqualTo(lastParked);
    // the next new task would get the slot after the last parked one
    assertThat(Instant.parse(row.getString("nextSlot"))).isEqualTo(lastParked.plusSeconds(600));
    assertThat(row.getInt("availablePermits")).isZero();
    JsonObject policy = row.getJsonObject("policy");
    assertThat(policy.getInt("permits")).isEqualTo(1);
    assertThat(policy.getString("period")).isEqualTo("PT10M");
    assertThat(policy.getInt("burst")).isEqualTo(1);
    assertThat(policy.getString("emissionInterval")).isEqualTo("PT10M");
    assertThat(policy.getString("maxReservationHorizon")).isEqualTo("PT1H");
    assertThat(policy.getString("overflow")).isEqualTo("WAIT_FOR_CAPACITY");
    assertThat(policy.getBoolean("throttleRetries")).isTrue();

    JsonObject totals = page.getJsonObject("totals");
    assertThat(totals.getInt("parkedTasks")).isGreaterThanOrEqualTo(2);
    assertThat(totals.getInt("maxParkedTasks")).isEqualTo(TestConfigSource.MAX_PARKED);
    assertThat(totals.getInt("trackedKeys")).isGreaterThanOrEqualTo(1);
    assertThat(totals.getInt("maxTrackedKeys")).isEqualTo(100_000);
    assertThat(totals.getJsonNumber("failOpenCount").longValue()).isZero();
    assertThat(totals.getInt("throttledKeys")).isGreaterThanOrEqualTo(1);
    assertThat(totals.getInt("heldTasks")).isZero();
    assertThat(totals.getBoolean("keysListed")).isTrue();
    assertThat(page.getString("at")).isNotBlank();
  }

  @Test
  void rowsAreFilteredSortedAndPaged() throws Exception {
    String prefix = key("sort");
    watch(prefix + "-a", 2); // 1 parked
    List<TaskReceipt> b = watch(prefix + "-b", 3); // 2 parked
    watch(prefix + "-c", 1); // none parked, throttled for 10 minutes
    TaskReceipt free = dispatcher.dispatch(new Paced(prefix + "-free", prefix + "-free"));
    dispatched.add(free.taskId());
    awaitParked(b.get(1).taskId(), b.get(2).taskId());
    awaitDone(free.taskId());
    String filter = "key=" + encode(prefix);

    assertThat(keys(getJson("rate-limits?" + filter, VIEWER)))
        .containsExactly(prefix + "-free", prefix + "-a", prefix + "-b", prefix + "-c");
    assertThat(keys(getJson("rate-limits?" + filter + "&type=Watched&sort=parked", VIEWER)))
        .containsExactly(prefix + "-b", prefix + "-a", prefix + "-c");
    assertThat(
            keys(getJson("rate-limits?" + filter + "&type=Watched&sort=parked&order=asc", VIEWER)))
        .containsExactly(prefix + "-c", prefix + "-a", prefix + "-b");
    assertThat(keys(getJson("rate-limits?" + filter + "&type=Watched&sort=nextSlot", VIEWER)))
        .containsExactly(prefix + "-b", prefix + "-a", prefix + "-c");
    assertThat(keys(getJson("rate-limits?" + filter + "&sort=key&order=desc", VIEWER)))
        .containsExactly(prefix + "-c", prefix + "-b", prefix + "-a", prefix + "-free");
    JsonObject throttled = getJson("rate-limits?" + filter + "&throttled=true", VIEWER);
    assertThat(keys(throttled)).containsExactly(prefix + "-a", prefix + "-b", prefix + "-c");
    JsonObject secondPage = getJson("rate-limits?" + filter + "&size=3&page=1", VIEWER);
    assertThat(keys(secondPage)).containsExactly(prefix + "-c");
    assertThat(secondPage.getInt("total")).isEqualTo(4);
    assertThat(secondPage.getInt("size")).isEqualTo(3);
    JsonObject free1 = getJson("rate-limits?" + filter + "&type=Paced", VIEWER);
    JsonObject freeRow = free1.getJsonArray("items").getJsonObject(0);
    assertThat(freeRow.getBoolean("throttled")).isFalse();
    assertThat(freeRow.containsKey("nextSlot")).isFalse(); // null: left out
    // burst 5, one spent; refilled again once 200 ms have passed
    assertThat(freeRow.getInt("availablePermits")).isBetween(4, 5);
  }

  @Test
  void statsCountWhatHappenedMinuteByMinuteWithinTheirBounds() throws Exception {
    String key = key("stats");
    List<TaskReceipt> receipts = watch(key, 3); // one runs, two park
    awaitParked(receipts.get(1).taskId(), receipts.get(2).taskId());
    // a @RateLimited resource, 5 calls a second per caller: called until it refuses one
    int granted = 0;
    int refused = 0;
    for (int i = 0; i < 30 && refused == 0; i++) {
      int status =
          Http.send("GET", api("it-limited/" + key), null, ADMIN, ADMIN_PASSWORD).statusCode();
      assertThat(status).isIn(200, 429);
      if (status == 200) {
        granted++;
      } else {
        refused++;
      }
    }
    assertThat(refused).as("a refusal within 30 calls").isEqualTo(1);

    JsonObject stats = getJson("stats?type=Watched&minutes=5", VIEWER);

    assertThat(stats.getInt("minutes")).isEqualTo(5);
    assertThat(stats.getInt("retainedMinutes")).isEqualTo(1440);
    assertThat(stats.getJsonArray("instances").getValuesAs(JsonString.class))
        .extracting(JsonString::getString)
        .contains(getJson("cluster", VIEWER).getString("self"));
    Instant from = Instant.parse(stats.getString("from"));
    assertThat(from.getEpochSecond() % 60).as("a minute's start").isZero();
    assertThat(Duration.between(from, Instant.now()))
        .isBetween(Duration.ofMinutes(4), Duration.ofMinutes(5).plusSeconds(5));
    JsonObject series =
        stats.getJsonArray("series").getValuesAs(JsonObject.class).stream()
            .filter(s -> s.getString("taskType").equals(WATCHED))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no series of Watched in " + stats));
    assertThat(series.getString("queue")).isEqualTo("default");
    JsonObject counts = series.getJsonObject("counts");
    for (String name :
        List.of(
            "started",
            "completed",
            "failed",
            "parked",
            "rejected",
            "rejectedBeyondHorizon",
            "rejectedDiscarded",
            "failedOpen")) {
      assertThat(counts.getJsonArray(name)).as(name).hasSize(5);
    }
    // this test's tasks are in the last two minutes (the current one may just have begun)
    assertThat(sum(counts, "parked")).isGreaterThanOrEqualTo(2);
    assertThat(sum(counts, "started")).isGreaterThanOrEqualTo(1);
    assertThat(sum(stats.getJsonObject("total"), "parked")).isEqualTo(sum(counts, "parked"));
    // the limiter's calls, whatever the queue and type filters
    JsonObject limiter =
        stats.getJsonArray("limiters").getValuesAs(JsonObject.class).stream()
            .filter(l -> l.getString("limiter").equals("it-http-quotes"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no limiter it-http-quotes in " + stats));
    JsonObject calls = limiter.getJsonObject("counts");
    for (String name : List.of("granted", "waited", "refused", "failedOpen")) {
      assertThat(calls.getJsonArray(name)).as(name).hasSize(5);
    }
    assertThat(sum(calls, "granted")).isGreaterThanOrEqualTo(granted);
    assertThat(sum(calls, "refused")).isGreaterThanOrEqualTo(refused);
    assertThat(getJson("stats", VIEWER).getInt("minutes")).isEqualTo(60);
    assertThat(getJson("stats?minutes=1440&queue=no-such-queue", VIEWER).getJsonArray("series"))
        .isEmpty();

    assertProblem("stats?minutes=0", "minutes", "0");
    assertProblem("stats?minutes=1441", "minutes", "1441");
    assertProblem("stats?minutes=an-hour", "minutes", "an-hour");
    assertProblem("stats?type=NoSuchTask", "type", "NoSuchTask");
    assertThat(Http.send("GET", api("stats"), null, null, null).statusCode()).isEqualTo(401);
  }

  private static long sum(JsonObject counts, String name) {
    return counts.getJsonArray(name).getValuesAs(JsonNumber.class).stream()
        .mapToLong(JsonNumber::longValue)
        .sum();
  }

  @Test
  void anAdminCancelsTheTasksParkedOnAKeyAndEachAuditSaysWhoAndWhenItWasParked() throws Exception {
    String key = key("bulk");
    List<TaskReceipt> receipts = watch(key, 3); // one runs, two park
    awaitParked(receipts.get(1).taskId(), receipts.get(2).taskId());
    Instant slot = parkingLot.parkedTask(receipts.get(1).taskId()).orElseThrow().slot();
    // the note that it was parked joins its audit within a second or so
    Await.until(
        () -> store.find(receipts.get(1).taskId()).isPresent() && noted(receipts.get(1).taskId()),
        TIMEOUT,
        () -> "no parking note in the audit of " + receipts.get(1).taskId());

    // the key's tasks, and only them, by their rate-limit key
    JsonObject ofKey = getJson("tasks?key=" + encode(key), VIEWER);
    assertThat(ofKey.getInt("total")).isEqualTo(3);
    assertThat(ofKey.getJsonArray("items").getValuesAs(JsonObject.class))
        .extracting(t -> t.getString("rateKey"))
        .containsOnly(key);
    // and the throttled ones among them: the two parked, earliest slot first
    JsonObject parkedOfKey = getJson("tasks?throttled=parked&key=" + encode(key), VIEWER);
    assertThat(parkedOfKey.getInt("total")).isEqualTo(2);
    assertThat(parkedOfKey.getJsonArray("items").getValuesAs(JsonObject.class))
        .extracting(t -> Instant.parse(t.getString("throttledUntil")))
        .isSorted();
    assertThat(getJson("tasks?throttled=held&key=" + encode(key), VIEWER).getInt("total")).isZero();
    assertProblem("tasks?throttled=sometimes", "throttled", "sometimes");
    // the key's tasks were parked, not rejected
    assertThat(
            getJson("tasks?throttled=rejected-discarded&key=" + encode(key), VIEWER)
                .getInt("total"))
        .isZero();
    // soonest due first: the one that ran, then the parked ones by when they are due
    List<JsonObject> byDue =
        getJson("tasks?sort=due&key=" + encode(key), VIEWER)
            .getJsonArray("items")
            .getValuesAs(JsonObject.class);
    assertThat(byDue).extracting(t -> Instant.parse(t.getString("scheduledAt"))).isSorted();
    assertProblem("tasks?sort=sideways", "sort", "sideways");

    HttpResponse<String> response =
        Http.send(
            "DELETE",
            api("rate-limits/parked?type=Watched&key=" + encode(key)),
            null,
            ADMIN,
            ADMIN_PASSWORD);

    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonObject cancelled = Http.json(response);
    assertThat(cancelled.getInt("cancelled")).isEqualTo(2);
    assertThat(cancelled.getString("taskType")).isEqualTo(WATCHED);
    assertThat(cancelled.getString("key")).isEqualTo(key);
    JsonObject task = getJson("tasks/" + receipts.get(1).taskId(), VIEWER);
    assertThat(task.getString("status")).isEqualTo("CANCELLED");
    List<JsonObject> history = task.getJsonArray("history").getValuesAs(JsonObject.class);
    assertThat(history)
        .extracting(h -> h.getString("to"))
        .containsExactly("QUEUED", "QUEUED", "CANCELLED");
    assertThat(history.get(1).getString("from")).isEqualTo("QUEUED");
    assertThat(history.get(1).getString("detail"))
        .isEqualTo(
            "Parked until "
                + slot.truncatedTo(java.time.temporal.ChronoUnit.MILLIS)
                + ", the next free slot of key "
                + key
                + " (1 per 10 min, burst 1)");
    assertThat(history.get(2).getString("detail"))
        .isEqualTo("Cancelled by admin through the REST API, with every task parked on key " + key);
    assertThat(parkingLot.parkedTask(receipts.get(2).taskId())).isEmpty();
    HttpResponse<String> noKey =
        Http.send("DELETE", api("rate-limits/parked?type=Watched"), null, ADMIN, ADMIN_PASSWORD);
    assertThat(noKey.statusCode()).isEqualTo(400);
    assertThat(Http.json(noKey).getString("parameter")).isEqualTo("key");
    assertThat(
            Http.send(
                    "DELETE",
                    api("rate-limits/parked?type=NoSuchTask&key=k"),
                    null,
                    ADMIN,
                    ADMIN_PASSWORD)
                .statusCode())
        .isEqualTo(400);
  }

  private boolean noted(UUID taskId) {
    return queries.history(taskId).stream().anyMatch(a -> a.from() == a.to());
  }

  @Test
  void badParametersAreProblemsNamingTheParameter() throws Exception {
    assertProblem("rate-limits?sort=bogus", "sort", "bogus");
    assertProblem("rate-limits?order=up", "order", "up");
    assertProblem("rate-limits?page=-1", "page", "-1");
    assertProblem("rate-limits?page=x", "page", "x");
    assertProblem("rate-limits?size=501", "size", "501");
    assertProblem("rate-limits?size=0", "size", "0");
    assertProblem("rate-limits?page=1000&size=500", "page", "1000");
    assertProblem("rate-limits?throttled=maybe", "throttled", "maybe");
    assertProblem("rate-limits?type=NoSuchTask", "type", "NoSuchTask");
    assertProblem("rate-limits/pacing?type=Watched", "key", null);
    HttpResponse<String> badEvents =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(api("events?events=everything"))
                    .header("Accept", "text/event-stream")
                    .header("Authorization", basic(VIEWER, VIEWER_PASSWORD))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(badEvents.statusCode()).isEqualTo(400);
    assertThat(Http.json(badEvents).getString("parameter")).isEqualTo("events");
    assertProblem("tasks?size=9999", "size", "9999");

    HttpResponse<String> notLimited =
        get(
            "rate-limits/" + io.taskgate.it.engine.Tasks.Echo.class.getName() + "/k/pacing",
            VIEWER);
    assertThat(notLimited.statusCode()).isEqualTo(404);
    assertThat(notLimited.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
    assertThat(Http.json(notLimited).getString("type"))
        .isEqualTo("urn:taskgate:problem:not-rate-limited");
    assertThat(Http.json(notLimited).getString("taskType"))
        .isEqualTo(io.taskgate.it.engine.Tasks.Echo.class.getName());
  }

  // ---- pacing, and user data in keys

  @Test
  void pacingShowsStartsReservationsAndParkedSlotsOfAKeyWithAnyCharacters() throws Exception {
    String key = "<script>alert(1)</script>/ &?#%\"" + UUID.randomUUID();
    List<TaskReceipt> receipts = watch(key, 2);
    awaitDone(receipts.get(0).taskId());
    awaitParked(receipts.get(1).taskId());
    Instant slot = parkingLot.parkedTask(receipts.get(1).taskId()).orElseThrow().slot();

    String path =
        "rate-limits/Watched/"
            + Arrays.stream(key.split("/", -1)).map(ApiIT::encode).collect(Collectors.joining("/"))
            + "/pacing";
    HttpResponse<String> response = get(path, VIEWER);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonObject pacing = Http.json(response);
    JsonObject byQuery =
        getJson("rate-limits/pacing?type=" + encode(WATCHED) + "&key=" + encode(key), VIEWER);

    for (JsonObject answer : List.of(pacing, byQuery)) {
      assertThat(answer.getString("key")).isEqualTo(key); // intact, as JSON data
      assertThat(answer.getString("taskType")).isEqualTo(WATCHED);
      assertThat(answer.getJsonArray("parkedSlots").getString(0)).isEqualTo(slot.toString());
      assertThat(Instant.parse(answer.getString("nextSlot"))).isEqualTo(slot.plusSeconds(600));
      assertThat(answer.getJsonObject("policy").getInt("permits")).isEqualTo(1);
      List<String> kinds =
          answer.getJsonArray("marks").getValuesAs(JsonObject.class).stream()
              .map(m -> m.getString("kind"))
              .toList();
      assertThat(kinds).containsExactly("STARTED", "RESERVED");
      JsonObject reserved = answer.getJsonArray("marks").getJsonObject(1);
      assertThat(reserved.getString("slot")).isEqualTo(slot.toString());
    }
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));

    JsonObject listed = getJson("rate-limits?key=" + encode(key), VIEWER);
    assertThat(keys(listed)).containsExactly(key);
  }

  // ---- /api/overview and the task views

  @Test
  void overviewCountsThrottledTasksOnlyWhileSomeAre() throws Exception {
    for (UUID parked : parkingLot.parkedTasks().stream().map(t -> t.task().id()).toList()) {
      dispatcher.cancel(parked); // other tests' leftovers
    }
    JsonObject calm = getJson("overview", VIEWER);
    assertThat(calm.containsKey("throttledTasks")).isFalse();
    assertThat(calm.getInt("parkedTasks")).isZero();
    JsonObject defaultQueue = queue(calm, "default");
    assertThat(defaultQueue.containsKey("throttledCount")).isFalse();
    assertThat(defaultQueue.getBoolean("configured")).isTrue();
    assertThat(defaultQueue.getInt("capacity")).isEqualTo(1000);
    assertThat(defaultQueue.getInt("parallelism")).isEqualTo(4);
    assertThat(calm.getJsonObject("tasks").keySet())
        .containsExactly("QUEUED", "IN_PROGRESS", "COMPLETED", "FAILED", "CANCELLED");
    assertThat(queue(calm, TestConfigSource.REST_QUEUE)).isNotNull();
    long completedBefore = calm.getJsonObject("tasks").getJsonNumber("COMPLETED").longValue();

    List<TaskReceipt> receipts = watch(key("overview"), 2);
    awaitDone(receipts.get(0).taskId());
    awaitParked(receipts.get(1).taskId());
    JsonObject throttled = getJson("overview", VIEWER);
    assertThat(throttled.getInt("throttledTasks")).isEqualTo(1);
    assertThat(queue(throttled, "default").getInt("throttledCount")).isEqualTo(1);
    assertThat(queue(throttled, "gated").containsKey("throttledCount")).isFalse();
    assertThat(throttled.getJsonObject("tasks").getJsonNumber("COMPLETED").longValue())
        .isGreaterThan(completedBefore);
    assertThat(queue(throttled, "default").getJsonObject("tasks").getInt("QUEUED"))
        .isGreaterThanOrEqualTo(1);

    dispatcher.cancel(receipts.get(1).taskId());
    JsonObject after = getJson("overview", VIEWER);
    assertThat(after.containsKey("throttledTasks")).isFalse();
    assertThat(queue(after, "default").containsKey("throttledCount")).isFalse();
  }

  @Test
  void aParkedTaskShowsUntilWhenItIsThrottledInTheTaskViews() throws Exception {
    List<TaskReceipt> receipts = watch(key("task"), 2);
    UUID parkedId = receipts.get(1).taskId();
    awaitParked(parkedId);
    Instant slot = parkingLot.parkedTask(parkedId).orElseThrow().slot();

    JsonObject task = getJson("tasks/" + parkedId, VIEWER);
    assertThat(task.getString("status")).isEqualTo("QUEUED");
    assertThat(Instant.parse(task.getString("throttledUntil"))).isEqualTo(slot);
    assertThat(task.getBoolean("held")).isFalse();
    // held by this instance, which dispatched it
    assertThat(task.getString("owner")).isEqualTo(getJson("cluster", VIEWER).getString("self"));

    JsonObject list = getJson("tasks?status=QUEUED&type=Watched&size=500", VIEWER);
    JsonObject listed =
        list.getJsonArray("items").getValuesAs(JsonObject.class).stream()
            .filter(t -> t.getString("id").equals(parkedId.toString()))
            .findFirst()
            .orElseThrow();
    assertThat(Instant.parse(listed.getString("throttledUntil"))).isEqualTo(slot);

    JsonObject ran = getJson("tasks/" + receipts.get(0).taskId(), VIEWER);
    assertThat(ran.containsKey("throttledUntil")).isFalse();
  }

  // ---- /api/events

  @Test
  void theEventStreamDeliversADeferralAndTransitions() throws Exception {
    String key = key("sse");
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    List<String[]> events = new java.util.concurrent.CopyOnWriteArrayList<>();
    HttpClient client = HttpClient.newHttpClient();
    HttpRequest request =
        HttpRequest.newBuilder(api("events"))
            .header("Accept", "text/event-stream")
            .header("Authorization", basic(VIEWER, VIEWER_PASSWORD))
            .GET()
            .build();
    CompletableFuture<HttpResponse<Stream<String>>> opened =
        client.sendAsync(request, HttpResponse.BodyHandlers.ofLines());
    HttpResponse<Stream<String>> response = opened.get(10, TimeUnit.SECONDS);
    assertThat(response.statusCode()).isEqualTo(200);
    Thread reader = new Thread(() -> response.body().forEach(line -> read(line, lines, events)));
    reader.setDaemon(true);
    reader.start();
    try {
      awaitLine(lines, l -> l.startsWith(":")); // the stream's opening comment: subscribed
      List<TaskReceipt> receipts = watch(key, 2);

      String deferral = awaitEvent(events, "rate-limit-deferred", key);
      JsonObject deferred = Http.json(deferral);
      assertThat(deferred.getString("key")).isEqualTo(key);
      assertThat(deferred.getString("taskType")).isEqualTo(WATCHED);
      assertThat(deferred.getString("taskId")).isEqualTo(receipts.get(1).taskId().toString());
      assertThat(deferred.getBoolean("summary")).isFalse();

      String id = receipts.get(0).taskId().toString();
      String transition = awaitEvent(events, "task-transition", "\"COMPLETED\"", id);
      JsonObject completed = Http.json(transition);
      assertThat(completed.getString("taskId")).isEqualTo(id);
      assertThat(completed.getString("from")).isEqualTo("IN_PROGRESS");
      assertThat(completed.getString("to")).isEqualTo("COMPLETED");
      assertThat(completed.getString("elapsed")).startsWith("PT");
    } finally {
      response.body().close();
      opened.cancel(true);
    }
  }

  // ---- /api/cluster

  @Test
  void theClusterViewShowsThisInstanceAliveWithItsHeartbeat() throws Exception {
    JsonObject cluster = getJson("cluster", VIEWER);

    assertThat(cluster.getString("heartbeatInterval")).isEqualTo("PT10S");
    assertThat(cluster.getString("instanceTimeout")).isEqualTo("PT30S");
    String self = cluster.getString("self");
    JsonObject me =
        cluster.getJsonArray("instances").getValuesAs(JsonObject.class).stream()
            .filter(i -> i.getString("id").equals(self))
            .findFirst()
            .orElseThrow(() -> new AssertionError("this instance is not listed: " + cluster));
    assertThat(me.getBoolean("self")).isTrue();
    assertThat(cluster.getJsonObject("limiter").getString("mode")).isEqualTo("local");
    assertThat(me.getBoolean("alive")).isTrue();
    assertThat(me.getString("version")).isNotBlank();
    Instant lastBeat = Instant.parse(me.getString("lastBeat"));
    assertThat(lastBeat).isBetween(Instant.now().minusSeconds(30), Instant.now().plusSeconds(1));
    assertThat(Instant.parse(me.getString("startedAt"))).isBeforeOrEqualTo(lastBeat);
  }

  // ---- security
  // ---- admin input that could hurt: answered at once, refused naming the field, never half done

  @Test
  void aSemaphoreGrownToAMillionAnswersAtOnceAndWakesItsWaitersWhileTheHolderRuns()
      throws Exception {
    manager.addOrUpdateSemaphore("it-newsletter", 1);
    String group = key("grow");
    TaskReceipt holder = dispatcher.dispatch(new Newsletter(group, group + "-holder", 8_000));
    Await.until(
        () ->
            ThrottledTasks.RUNNING.containsKey(group)
                && ThrottledTasks.RUNNING.get(group).get() == 1,
        TIMEOUT,
        () -> "the holder did not start");
    List<TaskReceipt> waiters = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      waiters.add(dispatcher.dispatch(new Newsletter(group, group + "-" + i, 100)));
    }
    Await.until(
        () -> throttlers.waiters().count("semaphore:it-newsletter") >= 1,
        TIMEOUT,
        () -> "no newsletter waits for the semaphore");

    HttpResponse<String> grown =
        timed("PUT", "throttlers/semaphore/it-newsletter", "{\"maxCount\":1000000}");

    assertThat(grown.statusCode()).as(grown.body()).isEqualTo(200);
    assertThat(manager.semaphore("it-newsletter")).contains(1_000_000);
    for (TaskReceipt waiter : waiters) {
      awaitDone(waiter.taskId());
    }
    assertThat(store.find(holder.taskId()).orElseThrow().status())
        .as("the waiters were woken by the change, not by the holder's release")
        .isEqualTo(TaskStatus.IN_PROGRESS);

    assertAdminProblem(
        "PUT", "throttlers/semaphore/it-newsletter", "{\"maxCount\":2147483647}", "maxCount");
    assertAdminProblem("PUT", "throttlers/semaphore/it-newsletter", "{\"maxCount\":0}", "maxCount");
    assertThat(manager.semaphore("it-newsletter"))
        .as("nothing refused is stored")
        .contains(1_000_000);
    awaitDone(holder.taskId());
  }

  @Test
  void windowsOutsideTheirRangesAreProblemsNamingTheField() throws Exception {
    String id = key("win");
    assertAdminProblem(
        "PUT",
        "throttlers/fixed-window/" + id,
        "{\"limit\":2147483647,\"interval\":\"PT1S\"}",
        "limit");
    assertAdminProblem(
        "PUT",
        "throttlers/fixed-window/" + id,
        "{\"limit\":5,\"interval\":\"P1000000D\"}",
        "interval");
    assertAdminProblem(
        "PUT",
        "throttlers/sliding-window/" + id,
        "{\"limit\":5,\"interval\":\"PT2562047788015215H\",\"buckets\":2}",
        "interval");
    assertAdminProblem(
        "PUT",
        "throttlers/dynamic-window/" + id,
        "{\"limit\":5,\"interval\":\"PT1S\",\"capacity\":2147483647}",
        "capacity");
    assertThat(
            Http.send("GET", api("throttlers/fixed-window/" + id), null, ADMIN, ADMIN_PASSWORD)
                .statusCode())
        .isEqualTo(404);
  }

  @Test
  void rateChangesOutOfRangeOrWithoutAKeyAreProblemsNamingTheFieldAndNothingIsStored()
      throws Exception {
    String path = "throttlers/rate-limit/Watched";
    String k = key("rate");
    for (String[] bad :
        new String[][] {
          {"{\"permits\":1,\"period\":\"P1000000D\",\"key\":\"" + k + "\"}", "period"},
          {"{\"permits\":1,\"period\":\"PT2562047788015215H\",\"key\":\"" + k + "\"}", "period"},
          {
            "{\"permits\":2147483647,\"period\":\"PT0.000000001S\",\"key\":\"" + k + "\"}",
            "permits"
          },
          {"{\"permits\":1000,\"period\":\"PT0.1S\",\"key\":\"" + k + "\"}", "permits"},
          {
            "{\"permits\":1,\"period\":\"PT1M\",\"burst\":2147483647,\"key\":\"" + k + "\"}",
            "burst"
          },
          {"{\"permits\":1,\"period\":\"PT1M\",\"key\":\"\"}", "key"},
          {"{\"permits\":1,\"period\":\"PT1M\"}", "key"},
          {"{\"permits\":1,\"period\":\"PT1M\",\"key\":\"a\\u0000b\"}", "key"},
          {"{\"permits\":1,\"period\":\"PT1M\",\"key\":\"" + k + "\",\"scope\":\"type\"}", "key"},
          {"{\"permits\":1,\"period\":\"PT1M\",\"scope\":\"all\"}", "scope"}
        }) {
      assertAdminProblem("PUT", path, bad[0], bad[1]);
    }
    assertAdminProblem("DELETE", path + "?key=", null, "key");
    assertAdminProblem("DELETE", path + "?key=a%00b", null, "key");
    assertAdminProblem("DELETE", path, null, "key");
    assertAdminProblem("DELETE", "rate-limits/parked?type=Watched&key=", null, "key");
    assertAdminProblem("DELETE", "rate-limits/parked?type=Watched&key=a%00b", null, "key");
    assertProblem("rate-limits/pacing?type=Watched&key=", "key", "");
    assertProblem("rate-limits/pacing?type=Watched&key=a%00b", "key", null);
    assertThat(rateChanges()).as("nothing refused is stored").isEmpty();

    // the whole type, said explicitly, and back
    HttpResponse<String> typeWide =
        timed("PUT", path, "{\"permits\":2,\"period\":\"PT10M\",\"scope\":\"type\"}");
    assertThat(typeWide.statusCode()).as(typeWide.body()).isEqualTo(200);
    assertThat(rateChanges()).containsExactly("null");
    assertThat(timed("DELETE", path + "?scope=type", null).statusCode()).isEqualTo(204);
    assertThat(rateChanges()).isEmpty();
  }

  @Test
  void everyMutatingMethodOfAViewerIsForbiddenWithAProblem() throws Exception {
    for (String method : List.of("PATCH", "PUT", "POST", "DELETE")) {
      for (String path :
          List.of(
              "tasks/" + UUID.randomUUID(),
              "throttlers/semaphore/it-newsletter",
              "pauses",
              "nothing")) {
        HttpResponse<String> refused = Http.send(method, api(path), "{}", VIEWER, VIEWER_PASSWORD);
        assertThat(refused.statusCode()).as(method + " " + path).isEqualTo(403);
        assertThat(refused.headers().firstValue("Content-Type"))
            .as(method + " " + path)
            .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        assertThat(Http.json(refused).getString("type"))
            .isEqualTo("urn:taskgate:problem:forbidden");
      }
    }
    HttpResponse<String> admin =
        Http.send("PATCH", api("tasks/" + UUID.randomUUID()), "{}", ADMIN, ADMIN_PASSWORD);
    assertThat(admin.statusCode()).as("an admin's PATCH: no such method here").isEqualTo(405);
  }

  @Test
  void aViewerReadsALastErrorWithoutClassNamesAnAdminAsStored() throws Exception {
    String id = key("doomed");
    TaskReceipt doomed = dispatcher.dispatch(new io.taskgate.it.engine.Tasks.Doomed(id));
    Await.until(
        () -> store.find(doomed.taskId()).orElseThrow(),
        t -> t.status() == TaskStatus.FAILED,
        TIMEOUT,
        t -> "the doomed task is " + t.status());

    JsonObject asViewer = getJson("tasks/" + doomed.taskId(), VIEWER);
    JsonObject asAdmin = getJson("tasks/" + doomed.taskId(), ADMIN);

    assertThat(asAdmin.getString("lastError"))
        .isEqualTo("java.lang.IllegalArgumentException: doomed " + id);
    assertThat(asViewer.getString("lastError")).isEqualTo("doomed " + id);
    assertThat(asViewer.toString()).doesNotContain("java.lang").doesNotContain("Exception");
    JsonObject listed =
        getJson(
            "tasks?status=FAILED&size=500&type="
                + io.taskgate.it.engine.Tasks.Doomed.class.getName(),
            VIEWER);
    assertThat(listed.toString())
        .contains("doomed " + id)
        .doesNotContain("IllegalArgumentException");
  }

  @Test
  void anonymousIsRefusedViewersReadAndOnlyAdminsChange() throws Exception {
    for (String path :
        List.of(
            "rate-limits",
            "overview",
            "tasks",
            "rate-limits/Watched/k/pacing",
            "metrics/keys",
            "cluster")) {
      assertThat(Http.send("GET", api(path), null, null, null).statusCode())
          .as(path)
          .isEqualTo(401);
      HttpResponse<String> read = get(path, VIEWER);
      assertThat(read.statusCode()).as(path).isEqualTo(200);
      assertThat(read.headers().allValues("Set-Cookie")).as("no session under /api").isEmpty();
      assertThat(get(path, ADMIN).statusCode()).as(path).isEqualTo(200);
    }
    assertThat(Http.send("GET", api("events"), null, null, null).statusCode()).isEqualTo(401);
    String body = "{\"key\":\"" + key("sec") + "\",\"id\":\"x\"}";
    assertThat(Http.send("POST", api("tasks/Watched"), body, VIEWER, VIEWER_PASSWORD).statusCode())
        .isEqualTo(403);
    assertThat(
            Http.send("DELETE", api("tasks/" + UUID.randomUUID()), null, VIEWER, VIEWER_PASSWORD)
                .statusCode())
        .isEqualTo(403);
    assertThat(Http.send("PUT", api("rate-limits"), "{}", VIEWER, VIEWER_PASSWORD).statusCode())
        .isEqualTo(403);
    assertThat(
            Http.send(
                    "DELETE",
                    api("rate-limits/parked?type=Watched&key=x"),
                    null,
                    VIEWER,
                    VIEWER_PASSWORD)
                .statusCode())
        .isEqualTo(403);
    HttpResponse<String> admin =
        Http.send("POST", api("tasks/Watched"), body, ADMIN, ADMIN_PASSWORD);
    assertThat(admin.statusCode()).isEqualTo(202);
    dispatched.add(UUID.fromString(Http.json(admin).getString("id")));
    assertThat(Http.send("GET", api("info"), null, null, null).statusCode()).isEqualTo(200);
    // the shipped viewer, whose password a config source sets to nothing, cannot log in
    assertThat(Http.send("GET", api("overview"), null, "viewer", "taskgate-viewer").statusCode())
        .isEqualTo(401);
  }

  /**
   * The session cookie, from the first anonymous visit through login (a new session id) to logout:
   * every cookie the pages set is {@code HttpOnly} and {@code SameSite=Lax}, and over HTTP not
   * {@code Secure}. The CSRF token lives in the session, so there is no other cookie.
   */
  @Test
  void everyCookieOfThePagesIsHttpOnlyAndSameSiteLaxFromTheFirstVisitToLogout() throws Exception {
    List<String> setCookies = new ArrayList<>();

    HttpResponse<String> anonymous = page("GET", "admin/overview.xhtml", null, null, setCookies);
    assertThat(anonymous.statusCode()).isEqualTo(302);
    String session = sessionId(anonymous);
    HttpResponse<String> login = page("GET", "login.xhtml", session, null, setCookies);
    assertThat(login.statusCode()).isEqualTo(200);
    String form =
        "login=login&login%3Ausername=admin&login%3Apassword="
            + ADMIN_PASSWORD
            + "&login%3Asubmit=Log+in"
            + tokens(login.body());
    HttpResponse<String> loggedIn = page("POST", "login.xhtml", session, form, setCookies);
    assertThat(loggedIn.statusCode()).as(loggedIn.body()).isEqualTo(302);
    assertThat(loggedIn.headers().firstValue("Location"))
        .hasValueSatisfying(l -> assertThat(l).endsWith("/admin/overview.xhtml"));
    String loggedInSession = sessionId(loggedIn);
    assertThat(loggedInSession).as("a new session id at login").isNotEqualTo(session);
    HttpResponse<String> overview =
        page("GET", "admin/overview.xhtml", loggedInSession, null, setCookies);
    assertThat(overview.statusCode()).isEqualTo(200);
    assertThat(overview.body()).contains("Log out");
    HttpResponse<String> out =
        page(
            "POST",
            "admin/overview.xhtml",
            loggedInSession,
            "logout=logout&logout%3Aout=Log+out" + tokens(overview.body()),
            setCookies);
    assertThat(out.statusCode()).isEqualTo(302);
    assertThat(page("GET", "login.xhtml?out", null, null, setCookies).statusCode()).isEqualTo(200);

    assertThat(setCookies)
        .as("the Set-Cookie headers of the visit, the login and the logout")
        .hasSizeGreaterThanOrEqualTo(3)
        .allSatisfy(
            cookie -> {
              assertThat(cookie).startsWith("JSESSIONID=");
              List<String> attributes =
                  Arrays.stream(cookie.split(";")).skip(1).map(String::strip).toList();
              assertThat(attributes)
                  .filteredOn(a -> a.regionMatches(true, 0, "SameSite=", 0, 9))
                  .as("one SameSite attribute, Lax, in " + cookie)
                  .singleElement()
                  .satisfies(a -> assertThat(a).isEqualToIgnoringCase("SameSite=Lax"));
              assertThat(attributes).as(cookie).contains("HttpOnly").doesNotContain("Secure");
            });
  }

  // ---- metrics, health, OpenAPI

  /**
   * The per-key metrics are open to anyone, so they carry a hash of the key (by default), never the
   * key; an authenticated caller finds the key behind each label at {@code /api/metrics/keys}.
   */
  @Test
  void metricsCarryNoRateLimitKeyOnlyItsLabelWhichTheApiResolves() throws Exception {
    String key = key("metrics");
    List<TaskReceipt> receipts = watch(key, 2);
    awaitParked(receipts.get(1).taskId());

    JsonObject published =
        Http.awaitJson(
            api("metrics/keys"),
            VIEWER,
            VIEWER_PASSWORD,
            body -> labelOf(body, key) != null,
            TIMEOUT);
    assertThat(published.getString("labels")).isEqualTo("hashed");
    String label = labelOf(published, key);
    assertThat(label).matches("h:[0-9a-f]{16}");

    String metrics = awaitMetrics("metrics", "key=\"" + label + "\"");
    assertThat(metrics).doesNotContain(key);
    Matcher keyTags = Pattern.compile("[{,]key=\"([^\"]*)\"").matcher(metrics);
    List<String> keyLabels = new ArrayList<>();
    while (keyTags.find()) {
      keyLabels.add(keyTags.group(1));
    }
    assertThat(keyLabels)
        .as("every key label in the anonymous /metrics")
        .isNotEmpty()
        .allSatisfy(l -> assertThat(l).matches("h:[0-9a-f]{16}"));
  }

  /**
   * The top-N guard: a key with parked tasks has its series (parked tasks, wait, drain time); once
   * it has none parked it leaves the top, and its series leave {@code /metrics}.
   */
  @Test
  void aKeyLeavingTheTopKeysLeavesTheMetricsWhichGaugeItsDrainTime() throws Exception {
    String key = key("drain");
    List<TaskReceipt> receipts = watch(key, 3); // parked until +10 and +20 minutes
    awaitParked(receipts.get(1).taskId(), receipts.get(2).taskId());
    String label =
        labelOf(
            Http.awaitJson(
                api("metrics/keys"),
                VIEWER,
                VIEWER_PASSWORD,
                body -> labelOf(body, key) != null,
                TIMEOUT),
            key);
    String keyTag = "key=\"" + label + "\"";
    String metrics = awaitMetrics("metrics?scope=application", keyTag, "key_drain");
    Matcher drain =
        Pattern.compile(
                "taskgate_rate_limit_key_drain_seconds\\{[^}]*"
                    + Pattern.quote(keyTag)
                    + "[^}]*\\} ([0-9.eE+]+)")
            .matcher(metrics);
    assertThat(drain.find()).as(metrics).isTrue();
    assertThat(Double.parseDouble(drain.group(1)))
        .as("the last parked task's slot, 20 minutes away")
        .isBetween(1_100.0, 1_200.0);
    assertThat(metrics)
        .containsPattern(
            "taskgate_rate_limit_key_parked_tasks\\{[^}]*"
                + Pattern.quote(keyTag)
                + "[^}]*\\} 2(\\.0)?\n");

    assertThat(
            Http.send(
                    "DELETE",
                    api("rate-limits/parked?type=Watched&key=" + encode(key)),
                    null,
                    ADMIN,
                    ADMIN_PASSWORD)
                .statusCode())
        .isEqualTo(200);

    HttpRequest request =
        HttpRequest.newBuilder(root("metrics?scope=application"))
            .header("Accept", "text/plain")
            .GET()
            .build();
    Await.until(
        () -> HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()),
        response -> response.statusCode() == 200 && !response.body().contains(keyTag),
        TIMEOUT,
        Duration.ofMillis(200),
        response -> "the key's series are still published: " + response.body());
  }

  /**
   * Every series that server-config's Grafana dashboard and Prometheus rules name is a sample of
   * {@code /metrics}, once the server has done what each counts: a parked key, a rejection, a
   * throttler wait, a backlog an hour old (two tasks of a paused key, due an hour ago).
   */
  @Test
  void everySeriesTheDashboardAndTheAlertsNameIsInMetrics() throws Exception {
    Set<String> named = new TreeSet<>();
    for (String file : List.of("taskgate.json", "taskgate-rules.yml")) {
      try (InputStream in = getClass().getClassLoader().getResourceAsStream(MONITORING + file)) {
        assertThat(in).as(file).isNotNull();
        Matcher name =
            Pattern.compile("\\btaskgate_[a-z_]+")
                .matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        while (name.find()) {
          named.add(name.group());
        }
      }
    }
    assertThat(named).as("series named").hasSizeGreaterThan(20);

    List<TaskReceipt> watched = watch(key("series"), 2); // one runs, one parks
    awaitParked(watched.get(1).taskId());
    String discardKey = key("discard");
    for (int i = 0; i < 2; i++) { // the second is discarded
      dispatched.add(
          dispatcher.dispatch(new GatedTasks.Discarded(discardKey, discardKey + i)).taskId());
    }
    manager.addOrUpdateSemaphore("it-newsletter", 1);
    String group = key("news");
    for (int i = 0; i < 3; i++) { // two wait for the one permit
      dispatched.add(dispatcher.dispatch(new Newsletter(group, group + "-" + i, 50)).taskId());
    }
    // two tasks of a paused key, due an hour ago: the default queue's backlog, an hour old
    String pausedKey = key("backlog");
    maintenance.pause(PauseScope.KEY, pausedKey, "it", "metrics");
    List<UUID> held = new ArrayList<>();
    try {
      for (int i = 0; i < 2; i++) {
        UUID id =
            dispatcher
                .dispatch(
                    new Watched(pausedKey, key("held") + i),
                    DispatchOptions.now().at(Instant.now().minus(Duration.ofHours(1))))
                .taskId();
        held.add(id);
        dispatched.add(id);
      }
      Pattern queued =
          Pattern.compile("(?m)^taskgate_tasks_queued\\{[^}]*queue=\"default\"[^}]*} ([0-9.]+)");
      Pattern age =
          Pattern.compile(
              "(?m)^taskgate_tasks_backlog_age_seconds\\{[^}]*queue=\"default\"[^}]*} ([0-9.]+)");
      HttpRequest request =
          HttpRequest.newBuilder(root("metrics?scope=application"))
              .header("Accept", "text/plain")
              .GET()
              .build();
      String metrics =
          Await.until(
              () ->
                  HttpClient.newHttpClient()
                      .send(request, HttpResponse.BodyHandlers.ofString())
                      .body(),
              body ->
                  named.stream().allMatch(n -> hasSample(body, n))
                      && value(queued, body) >= 2
                      && value(age, body) >= 3000,
              Duration.ofSeconds(90),
              Duration.ofMillis(500),
              body ->
                  "/metrics lacks "
                      + named.stream().filter(n -> !hasSample(body, n)).toList()
                      + " or the default queue's backlog (queued "
                      + value(queued, body)
                      + ", age "
                      + value(age, body)
                      + "):\n"
                      + body);
      assertThat(metrics)
          .containsPattern("(?m)^taskgate_cluster_instances\\{[^}]*state=\"alive\"[^}]*} 1")
          .containsPattern("(?m)^taskgate_cluster_dead_instance_tasks\\{[^}]*} 0");
    } finally {
      held.forEach(dispatcher::cancel);
      maintenance.resume(PauseScope.KEY, pausedKey, "it");
    }
  }

  /** Whether {@code metrics} has a sample of the series {@code name} (not only its HELP line). */
  private static boolean hasSample(String metrics, String name) {
    return Pattern.compile("(?m)^" + Pattern.quote(name) + "[{ ]").matcher(metrics).find();
  }

  /** The first value {@code sample} matches in {@code metrics}, or -1. */
  private static double value(Pattern sample, String metrics) {
    Matcher m = sample.matcher(metrics);
    return m.find() ? Double.parseDouble(m.group(1)) : -1;
  }

  @Test
  void metricsHealthAndOpenApiAnswerWithTheExpectedNames() throws Exception {
    String key = key("metrics");
    List<TaskReceipt> receipts = watch(key, 2);
    awaitDone(receipts.get(0).taskId());
    awaitParked(receipts.get(1).taskId());

    String metrics =
        awaitMetrics("metrics?scope=application", "taskgate_rate_limit_key_parked_tasks");
    for (String name :
        List.of(
            "taskgate_rate_limit_parked_tasks",
            "taskgate_rate_limit_held_tasks",
            "taskgate_rate_limit_tracked_keys",
            "taskgate_rate_limit_fail_open",
            "taskgate_rate_limit_deferrals",
            "taskgate_tasks_started",
            "taskgate_tasks_finished",
            "taskgate_task_duration",
            "taskgate_task_start_delay",
            "taskgate_rate_limit_key_wait",
            "taskgate_events_connections",
            "taskgate_events_dropped")) {
      assertThat(metrics).as(name).contains(name);
    }
    // the grid limiter's gauges, per instance: 0 with local budgets
    assertThat(metrics)
        .containsPattern("taskgate_rate_limit_grid_degraded\\{[^}]*instance=\"[^\"]+\"[^}]*\\} 0")
        .contains("taskgate_rate_limit_grid_degradations", "taskgate_rate_limit_local_decisions");
    assertThat(metrics).contains("type=\"" + WATCHED + "\"");

    HttpResponse<String> ready = Http.get(root("health/ready"));
    assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
    JsonObject health = Http.json(ready);
    assertThat(health.getString("status")).isEqualTo("UP");
    List<String> checks =
        health.getJsonArray("checks").getValuesAs(JsonObject.class).stream()
            .filter(c -> c.getString("status").equals("UP"))
            .map(c -> c.getString("name"))
            .toList();
    assertThat(checks).contains("taskgate-store", "taskgate-consumers", "taskgate-rate-limiter");
    JsonObject limiter =
        health.getJsonArray("checks").getValuesAs(JsonObject.class).stream()
            .filter(c -> c.getString("name").equals("taskgate-rate-limiter"))
            .findFirst()
            .orElseThrow()
            .getJsonObject("data");
    assertThat(limiter.getString("mode")).isEqualTo("local");
    assertThat(limiter.containsKey("degraded")).as("a local limiter has no grid to miss").isFalse();

    HttpResponse<String> openApi = Http.get(root("openapi"));
    assertThat(openApi.statusCode()).isEqualTo(200);
    assertThat(openApi.body())
        .contains("/rate-limits", "/overview", "/events", "pacing", "/metrics/keys", "/stats");
  }

  // ---- requeue

  @Test
  void anEndedTaskIsQueuedAgainAsNewAttemptsWithItsHistoryKept() throws Exception {
    String id = key("requeue-one");
    TaskReceipt later =
        dispatcher.dispatch(
            new Echo(id, "again"), DispatchOptions.now().after(Duration.ofHours(1)));
    assertThat(dispatcher.cancel(later.taskId())).isTrue();
    String path = "tasks/" + later.taskId() + "/requeue";

    assertThat(Http.send("POST", api(path), null, VIEWER, VIEWER_PASSWORD).statusCode())
        .as("a viewer may not requeue")
        .isEqualTo(403);
    HttpResponse<String> requeued = Http.send("POST", api(path), null, ADMIN, ADMIN_PASSWORD);

    assertThat(requeued.statusCode()).as(requeued.body()).isEqualTo(200);
    assertThat(Http.json(requeued).getString("id")).isEqualTo(later.taskId().toString());
    awaitDone(later.taskId());
    probe.await(id, "completed", 1, TIMEOUT); // the callback after the stored end
    assertThat(probe.events(id)).containsExactly("started", "handle:again", "completed");
    List<JsonObject> history =
        getJson("tasks/" + later.taskId(), ADMIN)
            .getJsonArray("history")
            .getValuesAs(JsonObject.class);
    assertThat(history)
        .extracting(h -> h.getString("from", null) + ">" + h.getString("to"))
        .containsExactly(
            "null>QUEUED",
            "QUEUED>CANCELLED",
            "CANCELLED>QUEUED",
            "QUEUED>IN_PROGRESS",
            "IN_PROGRESS>COMPLETED");
    assertThat(history.get(2).getString("detail"))
        .isEqualTo("Requeued by admin through the REST API");

    // a task that has not ended as FAILED or CANCELLED: 409 naming its status
    HttpResponse<String> completed = Http.send("POST", api(path), null, ADMIN, ADMIN_PASSWORD);
    assertThat(completed.statusCode()).as(completed.body()).isEqualTo(409);
    JsonObject problem = Http.json(completed);
    assertThat(problem.getString("taskStatus")).isEqualTo("COMPLETED");
    assertThat(problem.getString("detail"))
        .isEqualTo(
            "Task "
                + later.taskId()
                + " cannot be queued again: it is COMPLETED, not FAILED or"
                + " CANCELLED");
    assertThat(
            Http.send(
                    "POST",
                    api("tasks/" + UUID.randomUUID() + "/requeue"),
                    null,
                    ADMIN,
                    ADMIN_PASSWORD)
                .statusCode())
        .isEqualTo(404);
    HttpResponse<String> badId =
        Http.send("POST", api("tasks/not-an-id/requeue"), null, ADMIN, ADMIN_PASSWORD);
    assertThat(badId.statusCode()).isEqualTo(400);
    assertThat(Http.json(badId).getString("parameter")).isEqualTo("id");
  }

  @Test
  void aPausedTypeOrKeyKeepsItsTasksQueuedHoldingNoWorkerUntilItIsResumed() throws Exception {
    String echo = io.taskgate.it.engine.Tasks.Echo.class.getName();
    String pausedKey = key("paused-key");
    String body = "{\"scope\": \"type\", \"name\": \"" + echo + "\", \"reason\": \"<b>down</b>\"}";
    assertThat(Http.send("POST", api("pauses"), body, VIEWER, VIEWER_PASSWORD).statusCode())
        .as("a viewer may not pause")
        .isEqualTo(403);
    try {
      HttpResponse<String> paused = Http.send("POST", api("pauses"), body, ADMIN, ADMIN_PASSWORD);
      assertThat(paused.statusCode()).as(paused.body()).isEqualTo(201);
      JsonObject pause = Http.json(paused);
      assertThat(pause.getString("scope")).isEqualTo("TYPE");
      assertThat(pause.getString("pausedBy")).isEqualTo(ADMIN);
      assertThat(pause.getString("reason")).isEqualTo("<b>down</b>");
      HttpResponse<String> again = Http.send("POST", api("pauses"), body, ADMIN, ADMIN_PASSWORD);
      assertThat(again.statusCode()).as("paused already: the pause in force").isEqualTo(200);
      assertThat(Http.json(again).getString("pausedAt")).isEqualTo(pause.getString("pausedAt"));
      HttpResponse<String> keyPaused =
          Http.send(
              "POST",
              api("pauses"),
              "{\"scope\": \"KEY\", \"name\": \"" + pausedKey + "\"}",
              ADMIN,
              ADMIN_PASSWORD);
      assertThat(keyPaused.statusCode()).as(keyPaused.body()).isEqualTo(201);

      // three tasks of the paused type on the one-worker queue, then one of another type after
      // them, which runs: the paused ones hold no worker
      List<String> echoIds = new ArrayList<>();
      List<UUID> echoTasks = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        String id = key("paused-echo");
        echoIds.add(id);
        echoTasks.add(
            track(
                dispatcher.dispatch(
                    new io.taskgate.it.engine.Tasks.Echo(id, "later"),
                    DispatchOptions.now().onQueue("tiny"))));
      }
      UUID keyed = track(dispatcher.dispatch(new Watched(pausedKey, key("paused-watched"))));
      String otherKey = key("unpaused-key");
      UUID other = track(dispatcher.dispatch(new Watched(otherKey, key("unpaused-watched"))));
      UUID slow =
          track(
              dispatcher.dispatch(
                  new io.taskgate.it.engine.Tasks.Slow(key("after-paused"), 1),
                  DispatchOptions.now().onQueue("tiny")));
      awaitDone(slow);
      awaitDone(other);
      Await.until(
          () -> pauseRow("type", echo),
          row -> row.getInt("waitingHere") == 3 && row.getInt("queued") == 3,
          TIMEOUT,
          row -> "the paused type's tasks waiting here: " + row);
      assertThat(pauseRow("key", pausedKey).getInt("waitingHere")).isEqualTo(1);
      for (UUID id : echoTasks) {
        assertThat(store.find(id).orElseThrow().status()).isEqualTo(TaskStatus.QUEUED);
        assertThat(getJson("tasks/" + id, ADMIN).getString("paused")).isEqualTo("type " + echo);
      }
      echoIds.forEach(id -> assertThat(probe.events(id)).as("never started").isEmpty());
      assertThat(store.find(keyed).orElseThrow().status()).isEqualTo(TaskStatus.QUEUED);
      assertThat(getJson("tasks/" + keyed, ADMIN).getString("paused"))
          .isEqualTo("key " + pausedKey);

      HttpResponse<String> viewerResume =
          Http.send("DELETE", pauseUri("type", echo), null, VIEWER, VIEWER_PASSWORD);
      assertThat(viewerResume.statusCode()).isEqualTo(403);
      HttpResponse<String> resumed =
          Http.send("DELETE", pauseUri("type", echo), null, ADMIN, ADMIN_PASSWORD);
      assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(204);
      for (UUID id : echoTasks) {
        awaitDone(id);
      }
      echoIds.forEach(id -> assertThat(probe.events(id)).contains("started", "handle:later"));
      assertThat(store.find(keyed).orElseThrow().status())
          .as("its key is still paused")
          .isEqualTo(TaskStatus.QUEUED);
      assertThat(
              Http.send("DELETE", pauseUri("key", pausedKey), null, ADMIN, ADMIN_PASSWORD)
                  .statusCode())
          .isEqualTo(204);
      awaitDone(keyed);

      HttpResponse<String> notPaused =
          Http.send("DELETE", pauseUri("key", pausedKey), null, ADMIN, ADMIN_PASSWORD);
      assertThat(notPaused.statusCode()).isEqualTo(404);
      assertThat(Http.json(notPaused).getString("type"))
          .isEqualTo("urn:taskgate:problem:not-paused");
      List<JsonObject> changes =
          getJson("throttlers", ADMIN).getJsonArray("changes").getValuesAs(JsonObject.class);
      assertThat(changes)
          .filteredOn(c -> c.getString("id").equals("type " + echo))
          .extracting(c -> c.getString("by") + " " + c.get("before") + " > " + c.get("after"))
          .containsExactly(
              "admin \"paused by admin: <b>down</b>\" > null",
              "admin null > \"paused by admin: <b>down</b>\"");
    } finally {
      Http.send("DELETE", pauseUri("type", echo), null, ADMIN, ADMIN_PASSWORD);
      Http.send("DELETE", pauseUri("key", pausedKey), null, ADMIN, ADMIN_PASSWORD);
    }
  }

  @Test
  void badPausesAreProblemsNamingTheFieldAndNothingIsPaused() throws Exception {
    Map<String, String> bad =
        Map.of(
            "{\"scope\": \"queues\", \"name\": \"tiny\"}",
            "scope",
            "{\"scope\": \"queue\"}",
            "name",
            "{\"scope\": \"queue\", \"name\": \"  \"}",
            "name",
            "{\"scope\": \"queue\", \"name\": \"no-such-queue\"}",
            "name",
            "{\"scope\": \"type\", \"name\": \"NoSuchTask\"}",
            "name",
            "{\"scope\": \"key\", \"name\": \"k\", \"reason\": \"" + "r".repeat(501) + "\"}",
            "reason",
            "{\"scope\": \"key\", \"name\": \"k\", \"until\": \"PT1H\"}",
            "until",
            "{\"scope\": \"key\", \"name\": 7}",
            "name");
    for (Map.Entry<String, String> b : bad.entrySet()) {
      HttpResponse<String> refused =
          Http.send("POST", api("pauses"), b.getKey(), ADMIN, ADMIN_PASSWORD);
      assertThat(refused.statusCode()).as(b.getKey() + ": " + refused.body()).isEqualTo(400);
      assertThat(Http.json(refused).getString("parameter")).as(b.getKey()).isEqualTo(b.getValue());
    }
    assertThat(
            Http.json(
                    Http.send(
                        "POST",
                        api("pauses"),
                        "{\"scope\": \"queue\", \"name\": \"no-such-queue\"}",
                        ADMIN,
                        ADMIN_PASSWORD))
                .getString("detail"))
        .startsWith("name: no queue is called 'no-such-queue'; the queues are ")
        .contains("tiny");
    HttpResponse<String> noScope =
        Http.send("DELETE", api("pauses?name=x"), null, ADMIN, ADMIN_PASSWORD);
    assertThat(noScope.statusCode()).isEqualTo(400);
    assertThat(Http.json(noScope).getString("parameter")).isEqualTo("scope");
    assertThat(getJson("pauses", VIEWER).getJsonArray("pauses")).isEmpty();
  }

  private JsonObject pauseRow(String scope, String name) throws Exception {
    return getJson("pauses", VIEWER).getJsonArray("pauses").getValuesAs(JsonObject.class).stream()
        .filter(p -> p.getString("scope").equalsIgnoreCase(scope))
        .filter(p -> p.getString("name").equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("not paused: " + scope + " " + name));
  }

  private URI pauseUri(String scope, String name) throws Exception {
    return api(
        "pauses?scope="
            + scope
            + "&name="
            + java.net.URLEncoder.encode(name, java.nio.charset.StandardCharsets.UTF_8));
  }

  private UUID track(TaskReceipt receipt) {
    dispatched.add(receipt.taskId());
    return receipt.taskId();
  }

  @Test
  void failedTasksMatchingAFilterAreQueuedAgainInBulk() throws Exception {
    String prefix = key("requeue-bulk");
    List<UUID> doomed = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      doomed.add(dispatcher.dispatch(new Doomed(prefix + "-" + i)).taskId());
    }
    String otherId = key("requeue-other");
    UUID other = dispatcher.dispatch(new Doomed(otherId)).taskId();
    for (UUID id : concat(doomed, other)) {
      awaitStatus(id, TaskStatus.FAILED);
    }
    String filter = "status=failed&type=Doomed&error=" + encode(prefix);

    assertThat(
            Http.send("POST", api("tasks/requeue?" + filter), null, VIEWER, VIEWER_PASSWORD)
                .statusCode())
        .isEqualTo(403);
    JsonObject none =
        Http.json(
            Http.send(
                "POST",
                api("tasks/requeue?" + filter + "&olderThan=PT1H"),
                null,
                ADMIN,
                ADMIN_PASSWORD));
    assertThat(none.getInt("requeued")).as("none failed an hour ago").isZero();
    HttpResponse<String> response =
        Http.send(
            "POST",
            api("tasks/requeue?" + filter + "&newerThan=PT1H"),
            null,
            ADMIN,
            ADMIN_PASSWORD);

    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonObject bulk = Http.json(response);
    assertThat(bulk.getInt("requeued")).isEqualTo(3);
    assertThat(bulk.getInt("skipped")).isZero();
    assertThat(bulk.getBoolean("more")).isFalse();
    for (int i = 0; i < 3; i++) {
      String taskId = prefix + "-" + i;
      probe.await(taskId, "error:doomed " + taskId, 2, TIMEOUT);
      awaitStatus(doomed.get(i), TaskStatus.FAILED);
      // both attempts again, counted from 1
      assertThat(probe.events(taskId))
          .containsExactly(
              "attempt:1",
              "attempt:2",
              "error:doomed " + taskId,
              "attempt:1",
              "attempt:2",
              "error:doomed " + taskId);
      List<io.taskgate.store.TaskAudit> history = queries.history(doomed.get(i));
      io.taskgate.store.TaskAudit requeue =
          history.stream().filter(a -> a.from() == TaskStatus.FAILED).findFirst().orElseThrow();
      assertThat(requeue.to()).isEqualTo(TaskStatus.QUEUED);
      assertThat(requeue.detail())
          .startsWith(
              "Requeued by admin through the REST API, with every task matching status FAILED,"
                  + " type "
                  + Doomed.class.getName()
                  + ", error containing '"
                  + prefix
                  + "', ended since ")
          .endsWith("; it had FAILED: java.lang.IllegalArgumentException: doomed " + taskId);
    }
    assertThat(probe.count(otherId, "attempt:1")).as("not matched: not run again").isEqualTo(1);
    assertThat(queries.history(other)).noneMatch(a -> a.from() == TaskStatus.FAILED);

    assertAdminProblem("POST", "tasks/requeue?type=Doomed", null, "status");
    assertAdminProblem("POST", "tasks/requeue?status=queued", null, "status");
    assertAdminProblem("POST", "tasks/requeue?status=failed&olderThan=1h", null, "olderThan");
  }

  @Test
  void endedTasksMatchingAFilterAreDeletedWithTheirAudit() throws Exception {
    String prefix = key("delete-bulk");
    List<UUID> doomed = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      doomed.add(dispatcher.dispatch(new Doomed(prefix + "-" + i)).taskId());
    }
    UUID other = dispatcher.dispatch(new Doomed(key("delete-other"))).taskId();
    for (UUID id : concat(doomed, other)) {
      awaitStatus(id, TaskStatus.FAILED);
    }
    String filter = "tasks?status=failed&type=Doomed&error=" + encode(prefix);

    assertThat(Http.send("DELETE", api(filter), null, VIEWER, VIEWER_PASSWORD).statusCode())
        .isEqualTo(403);
    JsonObject none =
        Http.json(
            Http.send("DELETE", api(filter + "&olderThan=PT1H"), null, ADMIN, ADMIN_PASSWORD));
    assertThat(none.getInt("deleted")).as("none ended an hour ago").isZero();
    HttpResponse<String> response = Http.send("DELETE", api(filter), null, ADMIN, ADMIN_PASSWORD);

    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(Http.json(response).getInt("deleted")).isEqualTo(3);
    assertThat(Http.json(response).getBoolean("more")).isFalse();
    for (UUID id : doomed) {
      assertThat(get("tasks/" + id, ADMIN).statusCode()).isEqualTo(404);
      assertThat(queries.history(id)).as("its audit rows").isEmpty();
    }
    assertThat(store.find(other)).as("not matched: kept").isPresent();
    assertThat(queries.history(other)).isNotEmpty();
    assertAdminProblem("DELETE", "tasks?status=queued", null, "status");
    assertAdminProblem("DELETE", "tasks?type=Doomed", null, "status");
  }

  /**
   * Retention in the server: the tasks that ended longer ago than their status's retention (a week
   * for COMPLETED, a month for FAILED by default) go with their audit rows; younger ones stay. The
   * run is started by hand here (the pruner runs every minute).
   */
  @Test
  void retentionDeletesTheTasksThatEndedLongerAgoThanTheirStatussRetention() throws Exception {
    Instant now = Instant.now();
    UUID weekOld = ended(TaskStatus.COMPLETED, now.minus(Duration.ofDays(8)));
    UUID dayOld = ended(TaskStatus.COMPLETED, now.minus(Duration.ofDays(1)));
    UUID failedWeekOld = ended(TaskStatus.FAILED, now.minus(Duration.ofDays(8)));
    UUID failedMonthOld = ended(TaskStatus.FAILED, now.minus(Duration.ofDays(31)));

    io.taskgate.engine.schedule.Retention.Run run = retention.prune();

    assertThat(run.error()).isNull();
    assertThat(run.deleted()).isGreaterThanOrEqualTo(2);
    assertThat(store.find(weekOld)).isEmpty();
    assertThat(queries.history(weekOld)).isEmpty();
    assertThat(store.find(failedMonthOld)).isEmpty();
    assertThat(store.find(dayOld)).isPresent();
    assertThat(store.find(failedWeekOld)).isPresent();
    assertThat(queries.history(failedWeekOld)).hasSize(2);
    assertThat(retention.last()).isEqualTo(run);
    // the overview says how long each ended status is kept, and what the last run did
    JsonObject kept = getJson("overview", VIEWER).getJsonObject("retention");
    assertThat(kept.getJsonObject("keep").getString("COMPLETED")).isEqualTo("P7D");
    assertThat(kept.getJsonObject("keep").getString("FAILED")).isEqualTo("P30D");
    assertThat(kept.getJsonObject("keep").getString("CANCELLED")).isEqualTo("P30D");
    assertThat(Instant.parse(kept.getString("lastRun"))).isEqualTo(run.at());
    assertThat(kept.getJsonNumber("deletedSinceStart").longValue())
        .isGreaterThanOrEqualTo(run.deleted());
  }

  /** A task stored now that ended as {@code status} at {@code at}, with two audit rows. */
  private UUID ended(TaskStatus status, Instant at) {
    io.taskgate.store.StoredTask task =
        io.taskgate.store.StoredTask.queued(
            UUID.randomUUID(),
            Echo.class.getName(),
            "{\"id\":\"old\"}",
            "default",
            null,
            at,
            null,
            at);
    store.insert(task);
    store.update(task, task.withStatus(status), at);
    return task.id();
  }

  // ---- helpers

  private List<TaskReceipt> watch(String key, int n) throws InterruptedException {
    List<TaskReceipt> receipts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      TaskReceipt receipt = dispatcher.dispatch(new Watched(key, key + "#" + i));
      receipts.add(receipt);
      dispatched.add(receipt.taskId());
      if (i == 0) {
        awaitDone(receipt.taskId()); // the first spends the budget, the others park in order
      }
    }
    return receipts;
  }

  private void awaitStatus(UUID taskId, TaskStatus status) throws InterruptedException {
    Await.until(
        () -> store.find(taskId),
        t -> t.map(task -> task.status() == status).orElse(false),
        TIMEOUT,
        t -> "task " + taskId + " did not become " + status + ": " + t);
  }

  private static List<UUID> concat(List<UUID> ids, UUID more) {
    List<UUID> all = new ArrayList<>(ids);
    all.add(more);
    return all;
  }

  private void awaitDone(UUID taskId) throws InterruptedException {
    Await.until(
        () -> store.find(taskId),
        t -> t.map(task -> task.status() == TaskStatus.COMPLETED).orElse(false),
        TIMEOUT,
        t -> "task " + taskId + " did not complete: " + t);
  }

  private void awaitParked(UUID... taskIds) throws InterruptedException {
    for (UUID id : taskIds) {
      Await.until(
          () -> parkingLot.parkedTask(id).isPresent(),
          TIMEOUT,
          () -> "task " + id + " was not parked: " + store.find(id));
    }
  }

  /** GETs {@code path} (under the server's root) anonymously until it has every text expected. */
  private String awaitMetrics(String path, String... expected) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(root(path)).header("Accept", "text/plain").GET().build();
    return Await.until(
            () -> HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()),
            response ->
                response.statusCode() == 200
                    && Arrays.stream(expected).allMatch(response.body()::contains),
            TIMEOUT,
            Duration.ofMillis(200),
            response ->
                "/metrics lacks "
                    + Arrays.toString(expected)
                    + ": HTTP "
                    + response.statusCode()
                    + "\n"
                    + response.body())
        .body();
  }

  private static String awaitLine(
      BlockingQueue<String> lines, java.util.function.Predicate<String> wanted)
      throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (true) {
      String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (line == null) {
        throw new AssertionError("the event stream sent no expected line within " + TIMEOUT);
      }
      if (wanted.test(line)) {
        return line;
      }
    }
  }

  /**
   * Reads one line of the stream: every line goes to {@code lines}; an event's name and data, once
   * its blank line ends it, to {@code events}.
   */
  private static void read(String line, BlockingQueue<String> lines, List<String[]> events) {
    lines.add(line);
    if (line.startsWith("event:")) {
      events.add(new String[] {line.substring(6).strip(), null});
    } else if (line.startsWith("data:") && !events.isEmpty()) {
      events.get(events.size() - 1)[1] = line.substring(5).strip();
    }
  }

  /** The data of an event named {@code name} whose data contains every {@code text}, once sent. */
  private static String awaitEvent(List<String[]> events, String name, String... text)
      throws InterruptedException {
    return Await.until(
            () -> {
              for (String[] event : events) {
                if (event[0].equals(name)
                    && event[1] != null
                    && Arrays.stream(text).allMatch(event[1]::contains)) {
                  return Optional.of(event[1]);
                }
              }
              return Optional.<String>empty();
            },
            Optional::isPresent,
            TIMEOUT,
            Duration.ofMillis(50),
            seen ->
                "no "
                    + name
                    + " event with "
                    + Arrays.toString(text)
                    + "; got "
                    + events.stream().map(e -> e[0] + " " + e[1]).toList())
        .orElseThrow();
  }

  /** The label of {@code key} in a {@code /api/metrics/keys} answer, or null. */
  private static String labelOf(JsonObject published, String key) {
    return published.getJsonArray("keys").getValuesAs(JsonObject.class).stream()
        .filter(k -> k.getString("key").equals(key) && k.getString("taskType").equals(WATCHED))
        .map(k -> k.getString("label"))
        .findFirst()
        .orElse(null);
  }

  /**
   * A request for a page (under the context root) as a browser sends it, without following a
   * redirect: the session cookie {@code session} (null: none) and, for a POST, the form {@code
   * form}. Every Set-Cookie header of the answer is added to {@code setCookies}.
   */
  private HttpResponse<String> page(
      String method, String path, String session, String form, List<String> setCookies)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(baseUrl.toURI().resolve(path))
            .timeout(TIMEOUT)
            .method(
                method,
                form == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(form));
    if (form != null) {
      request.header("Content-Type", "application/x-www-form-urlencoded");
    }
    if (session != null) {
      request.header("Cookie", "JSESSIONID=" + session);
    }
    HttpResponse<String> response =
        HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    setCookies.addAll(response.headers().allValues("Set-Cookie"));
    return response;
  }

  /** The session id a response's Set-Cookie header gives. */
  private static String sessionId(HttpResponse<String> response) {
    String cookie =
        response.headers().allValues("Set-Cookie").stream()
            .filter(c -> c.startsWith("JSESSIONID="))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no session cookie: " + response.headers()));
    int end = cookie.indexOf(';');
    return cookie.substring("JSESSIONID=".length(), end < 0 ? cookie.length() : end);
  }

  /** The CSRF token and the view state of the first form of {@code html}, as form fields. */
  private static String tokens(String html) {
    return "&_csrf="
        + hidden(html, "_csrf")
        + "&jakarta.faces.ViewState="
        + hidden(html, "jakarta.faces.ViewState");
  }

  private static String hidden(String html, String name) {
    Matcher input =
        Pattern.compile("name=\"" + Pattern.quote(name) + "\"[^>]*value=\"([^\"]*)\"")
            .matcher(html);
    assertThat(input.find()).as("hidden input %s in %s", name, html).isTrue();
    return URLEncoder.encode(input.group(1), StandardCharsets.UTF_8);
  }

  /** {@code method} on {@code path} as admin, answered within 2 s (by design within 100 ms). */
  private HttpResponse<String> timed(String method, String path, String body) throws Exception {
    long start = System.nanoTime();
    HttpResponse<String> response = Http.send(method, api(path), body, ADMIN, ADMIN_PASSWORD);
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .as(method + " " + path + " " + body)
        .isLessThan(Duration.ofSeconds(2));
    return response;
  }

  /** An admin's {@code method} is a 400 problem naming {@code field}, answered at once. */
  private void assertAdminProblem(String method, String path, String body, String field)
      throws Exception {
    HttpResponse<String> response = timed(method, path, body);
    String what = method + " " + path + " " + body + ": " + response.body();
    assertThat(response.statusCode()).as(what).isEqualTo(400);
    assertThat(response.headers().firstValue("Content-Type"))
        .as(what)
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
    assertThat(Http.json(response).getString("parameter")).as(what).isEqualTo(field);
    assertThat(Http.json(response).getString("detail")).as(what).startsWith(field + " ");
  }

  /** The keys of Watched's run-time rate changes ({@code "null"} for the type's). */
  private List<String> rateChanges() throws Exception {
    return getJson("throttlers", ADMIN)
        .getJsonArray("rateLimits")
        .getValuesAs(JsonObject.class)
        .stream()
        .filter(r -> r.getString("taskType").equals(WATCHED))
        .map(r -> r.containsKey("key") && !r.isNull("key") ? r.getString("key") : "null")
        .toList();
  }

  private void assertProblem(String path, String parameter, String value) throws Exception {
    HttpResponse<String> response = get(path, VIEWER);
    assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(400);
    assertThat(response.headers().firstValue("Content-Type"))
        .as(path)
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
    JsonObject problem = Http.json(response);
    assertThat(problem.getInt("status")).isEqualTo(400);
    assertThat(problem.getString("parameter")).as(path).isEqualTo(parameter);
    if (value != null) {
      assertThat(problem.getString("value")).as(path).isEqualTo(value);
    }
    assertThat(response.body()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  private static List<String> keys(JsonObject page) {
    return page.getJsonArray("items").getValuesAs(JsonObject.class).stream()
        .map(r -> r.getString("key"))
        .toList();
  }

  private static JsonObject queue(JsonObject overview, String name) {
    JsonArray queues = overview.getJsonArray("queues");
    for (JsonValue q : queues) {
      if (q.asJsonObject().getString("name").equals(name)) {
        return q.asJsonObject();
      }
    }
    return null;
  }

  private HttpResponse<String> get(String path, String user) throws Exception {
    return Http.send(
        "GET", api(path), null, user, user.equals(ADMIN) ? ADMIN_PASSWORD : VIEWER_PASSWORD);
  }

  private JsonObject getJson(String path, String user) throws Exception {
    HttpResponse<String> response = get(path, user);
    assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
    return Http.json(response);
  }

  private URI api(String path) throws Exception {
    return baseUrl.toURI().resolve("api/" + path);
  }

  private URI root(String path) throws Exception {
    return baseUrl.toURI().resolve("/" + path);
  }

  private static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String key(String what) {
    return "api-" + what + "-" + UUID.randomUUID();
  }
}
