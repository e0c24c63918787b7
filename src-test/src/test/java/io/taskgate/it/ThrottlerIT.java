package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.api.TaskDispatcher;
import io.taskgate.api.TaskReceipt;
import io.taskgate.api.TaskStatus;
import io.taskgate.api.TaskThrottledException;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.ThrottlingManager;
import io.taskgate.api.WindowOptions;
import io.taskgate.core.throttle.LocalThrottlerState;
import io.taskgate.engine.admin.StatsViews;
import io.taskgate.engine.admin.dto.StatsView;
import io.taskgate.engine.handler.HandlerRegistry;
import io.taskgate.engine.handler.Payloads;
import io.taskgate.engine.throttle.jobs.JobThrottlers;
import io.taskgate.it.engine.GatedTasks;
import io.taskgate.it.engine.TestConfigSource;
import io.taskgate.it.engine.ThrottledTasks;
import io.taskgate.it.engine.ThrottledTasks.DropboxCall;
import io.taskgate.it.engine.ThrottledTasks.DroppedSend;
import io.taskgate.it.engine.ThrottledTasks.Export;
import io.taskgate.it.engine.ThrottledTasks.GithubCall;
import io.taskgate.it.engine.ThrottledTasks.Newsletter;
import io.taskgate.it.engine.ThrottledTasks.OrderStep;
import io.taskgate.it.engine.ThrottledTasks.PartnerCall;
import io.taskgate.it.engine.ThrottledTasks.PartnerStep;
import io.taskgate.it.engine.ThrottledTasks.Run;
import io.taskgate.it.engine.ThrottledTasks.StrictStep;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskQueries;
import io.taskgate.store.TaskStore;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.LongStream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The job throttlers in the engine, on Payara Micro and real time: a mutex per order, a semaphore
 * of 3 over 30 tasks, a fixed and a sliding window with zero violations, a rate limit with a window
 * (and a mutex) all or nothing, DROP, strict holds across a retry, a semaphore changed at run time,
 * and holds taken again from the store after the state is lost. Each test uses groups (and ids) of
 * its own.
 */
@ExtendWith(ArquillianExtension.class)
class ThrottlerIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private static final String ADMIN = "admin";
  private static final String PASSWORD = "taskgate";

  @ArquillianResource URL baseUrl;

  @Inject StatsViews statsViews;
  @Inject TaskDispatcher dispatcher;
  @Inject ThrottlingManager manager;
  @Inject TaskStore store;
  @Inject TaskQueries queries;
  @Inject JobThrottlers throttlers;
  @Inject HandlerRegistry registry;
  @Inject Payloads payloads;

  @Deployment
  static WebArchive taskgateWar() {
    return EngineIT.taskgateWar();
  }

  @Test
  void aMutexKeepsTwoTasksOfOneOrderApartWhileOtherOrdersRun() throws Exception {
    String a = unique("a");
    String b = unique("b");
    List<TaskReceipt> receipts = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      receipts.add(dispatcher.dispatch(new OrderStep(a, a + "-" + i, 300)));
      receipts.add(dispatcher.dispatch(new OrderStep(b, b + "-" + i, 300)));
    }

    awaitAll(receipts, TaskStatus.COMPLETED);

    List<Run> runsOfA = ThrottledTasks.runs("order-" + a);
    List<Run> runsOfB = ThrottledTasks.runs("order-" + b);
    assertThat(runsOfA).hasSize(3);
    assertThat(runsOfB).hasSize(3);
    assertApart(runsOfA);
    assertApart(runsOfB);
    assertThat(ThrottledTasks.most("order-" + a)).isEqualTo(1);
    boolean overlapped =
        runsOfA.stream()
            .anyMatch(
                ra ->
                    runsOfB.stream()
                        .anyMatch(
                            rb -> ra.start().isBefore(rb.end()) && rb.start().isBefore(ra.end())));
    assertThat(overlapped).as("order %s ran beside order %s", a, b).isTrue();
  }

  @Test
  void aSemaphoreOfThreeKeepsThirtyTasksToThreeAndFreesTheWorkersWhileTheyWait() throws Exception {
    manager.addOrUpdateSemaphore("it-newsletter", 3);
    long waitedBefore = newslettersMadeToWait(); // by the class's other tests
    String group = unique("news");
    List<TaskReceipt> receipts = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      receipts.add(dispatcher.dispatch(new Newsletter(group, group + "-" + i, 100)));
    }
    // the queue has six workers, three of them free while the others wait for permits
    String other = unique("other");
    TaskReceipt free = dispatcher.dispatch(new OrderStep(other, other + "-0", 0));

    await(free.taskId(), TaskStatus.COMPLETED);
    long newslettersDone = countDone(receipts);
    awaitAll(receipts, TaskStatus.COMPLETED);

    assertThat(newslettersDone)
        .as("the other task ran while newsletters still waited for permits")
        .isLessThan(30);
    assertThat(ThrottledTasks.most(group)).isEqualTo(3);
    assertThat(ThrottledTasks.runs(group)).hasSize(30);
    // the per-minute history counts each task made to wait once, however often it was checked
    // again; the first three found a permit free
    assertThat(newslettersMadeToWait() - waitedBefore).isBetween(1L, 27L);
    StatsView stats =
        statsViews.stats(60, Optional.of("throttled"), Optional.of(Newsletter.class.getName()));
    assertThat(LongStream.of(stats.total().throttleDropped()).sum()).isZero();
    String metrics =
        Await.until(
                () -> Http.getText(baseUrl.toURI().resolve("/metrics?scope=application")),
                r ->
                    r.statusCode() == 200
                        && r.body().contains("taskgate_throttler_wait_seconds_count"),
                TIMEOUT,
                r -> "no throttler metrics: " + r.body())
            .body();
    assertThat(metrics)
        .containsPattern(
            "taskgate_throttler_acquired\\{[^}]*throttle=\"semaphore:it-newsletter\"[^}]*\\}"
                + " [1-9]")
        .containsPattern(
            "taskgate_throttler_wait_seconds_count\\{[^}]*throttle=\"semaphore:it-newsletter\""
                + "[^}]*\\} [1-9]");
  }

  /**
   * A concurrency limit of 2 per tenant: at every start no tenant has more than 2 running (each
   * handler counts itself in), the two tenants run side by side, a task of another type runs on the
   * workers the waiting exports do not hold, and the REST API lists the limit.
   */
  @Test
  void aConcurrencyLimitKeepsEachTenantToTwoRunningWhileTheOtherTenantsRun() throws Exception {
    String a = unique("tenant-a");
    String b = unique("tenant-b");
    List<TaskReceipt> receipts = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      receipts.add(dispatcher.dispatch(new Export(a, a + "-" + i, 150)));
      receipts.add(dispatcher.dispatch(new Export(b, b + "-" + i, 150)));
    }
    // six workers: four exports run, two workers stay free while the others wait
    String other = unique("other");
    TaskReceipt free = dispatcher.dispatch(new OrderStep(other, other + "-0", 0));

    await(free.taskId(), TaskStatus.COMPLETED);
    long exportsDone = countDone(receipts);
    awaitAll(receipts, TaskStatus.COMPLETED);

    assertThat(exportsDone).as("the other task ran while exports still waited").isLessThan(24);
    assertThat(ThrottledTasks.runs(a)).hasSize(12);
    assertThat(ThrottledTasks.runs(b)).hasSize(12);
    assertThat(ThrottledTasks.most(a)).as("most of %s running at once", a).isEqualTo(2);
    assertThat(ThrottledTasks.most(b)).as("most of %s running at once", b).isEqualTo(2);
    boolean sideBySide =
        ThrottledTasks.runs(a).stream()
            .anyMatch(
                ra ->
                    ThrottledTasks.runs(b).stream()
                        .anyMatch(
                            rb -> ra.start().isBefore(rb.end()) && rb.start().isBefore(ra.end())));
    assertThat(sideBySide).as("%s ran beside %s", a, b).isTrue();
    String id = Export.class.getName() + ":{tenant}";
    JsonObject row =
        Http.json(Http.send("GET", api("throttlers"), null, ADMIN, PASSWORD))
            .getJsonArray("throttlers")
            .getValuesAs(JsonObject.class)
            .stream()
            .filter(t -> t.getString("kind").equals("concurrency") && t.getString("id").equals(id))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no concurrency row " + id));
    assertThat(row.getInt("limit")).isEqualTo(2);
    assertThat(row.getJsonArray("usedBy").getString(0)).isEqualTo(Export.class.getName());
    assertThat(row.getBoolean("removable")).isFalse();
    // by ?id=: Payara 7 refuses a colon in a path (HTTP 500 from its authorization)
    HttpResponse<String> one =
        Http.send(
            "GET",
            api(
                "throttlers/concurrency?id="
                    + java.net.URLEncoder.encode(id, StandardCharsets.UTF_8)),
            null,
            ADMIN,
            PASSWORD);
    assertThat(one.statusCode()).as(one.body()).isEqualTo(200);
    assertThat(Http.json(one).getString("id")).isEqualTo(id);
  }

  private long newslettersMadeToWait() {
    StatsView stats =
        statsViews.stats(60, Optional.of("throttled"), Optional.of(Newsletter.class.getName()));
    return LongStream.of(stats.total().throttleWaited()).sum();
  }

  @Test
  void aFixedWindowOfFivePerTwoSecondsHasNoViolationOnRealTime() throws Exception {
    manager.addOrUpdateWindow(
        ThrottlerKind.FIXED_WINDOW, "it-github", WindowOptions.fixed(5, Duration.ofSeconds(2)));
    String group = unique("github");
    Await.earlyIn(Duration.ofSeconds(2));
    List<TaskReceipt> receipts = new ArrayList<>();
    for (int i = 0; i < 15; i++) {
      receipts.add(dispatcher.dispatch(new GithubCall(group, group + "-" + i)));
    }

    awaitAll(receipts, TaskStatus.COMPLETED);

    Map<Long, Integer> perWindow = new HashMap<>();
    for (Run run : ThrottledTasks.runs(group)) {
      perWindow.merge(run.start().toEpochMilli() / 2_000, 1, Integer::sum);
    }
    assertThat(ThrottledTasks.runs(group)).as("each ran once").hasSize(15);
    assertThat(perWindow.values())
        .as("starts per 2 s window: %s", ThrottledTasks.runs(group))
        .allMatch(n -> n <= 5);
    assertThat(perWindow).hasSize(3);
  }

  @Test
  void aSlidingWindowHasNoViolationOnRealTime() throws Exception {
    // 4 per 4 s in buckets of 1 s: no 4 consecutive buckets hold more than 4 starts
    manager.addOrUpdateWindow(
        ThrottlerKind.SLIDING_WINDOW,
        "it-dropbox",
        WindowOptions.sliding(4, Duration.ofSeconds(4), 4));
    String group = unique("dropbox");
    Await.earlyIn(Duration.ofSeconds(1));
    List<TaskReceipt> receipts = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      receipts.add(dispatcher.dispatch(new DropboxCall(group, group + "-" + i)));
    }

    awaitAll(receipts, TaskStatus.COMPLETED);

    assertThat(ThrottledTasks.runs(group)).as("each ran once").hasSize(10);
    Map<Long, Integer> perBucket = new HashMap<>();
    for (Run run : ThrottledTasks.runs(group)) {
      perBucket.merge(run.start().toEpochMilli() / 1_000, 1, Integer::sum);
    }
    long first = perBucket.keySet().stream().min(Long::compare).orElseThrow();
    long last = perBucket.keySet().stream().max(Long::compare).orElseThrow();
    for (long b = first; b <= last; b++) {
      int inInterval = 0;
      for (long k = b - 3; k <= b; k++) {
        inInterval += perBucket.getOrDefault(k, 0);
      }
      assertThat(inInterval)
          .as("starts in the 4 s ending with bucket %d", b)
          .isLessThanOrEqualTo(4);
    }
    assertThat(last - first)
        .as("10 starts at 4 per 4 s span two more intervals")
        .isGreaterThanOrEqualTo(8);
  }

  /**
   * A rate-limited task type with a sliding window (1 per 2 s per key, burst 3; 2 starts per 2 s):
   * six tasks of one key, the window refuses four of them while the key's burst would let the third
   * run. A refused attempt spends none of the key's budget: when the window opens at 2 s the key
   * still has its burst, and two tasks start then, not an interval later. Every start keeps to the
   * window and to the rate, and each task runs once.
   */
  @Test
  void aWindowThatRefusesARateLimitedTaskCostsItsKeyNoBudget() throws Exception {
    manager.addOrUpdateWindow(
        ThrottlerKind.SLIDING_WINDOW,
        "it-partner",
        WindowOptions.sliding(2, Duration.ofSeconds(2), 2));
    String key = unique("partner");
    Await.earlyIn(Duration.ofSeconds(1));
    List<TaskReceipt> receipts = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      receipts.add(dispatcher.dispatch(new PartnerCall(key, key + "-" + i)));
    }

    awaitAll(receipts, TaskStatus.COMPLETED);

    assertPartnerStarts(key, 6);
  }

  /**
   * The same with a mutex per order taken before the window (three orders of two steps): a step the
   * window or the rate limit does not let run gives its order's mutex back at once, and every mutex
   * is free at the end.
   */
  @Test
  void aRateLimitedTaskWithAMutexAndAWindowHoldsNothingWhileItWaits() throws Exception {
    manager.addOrUpdateWindow(
        ThrottlerKind.SLIDING_WINDOW,
        "it-partner-orders",
        WindowOptions.sliding(2, Duration.ofSeconds(2), 2));
    String key = unique("partner");
    Await.earlyIn(Duration.ofSeconds(1));
    List<TaskReceipt> receipts = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      receipts.add(dispatcher.dispatch(new PartnerStep(key, key + "-o" + i / 2, key + "-" + i)));
    }

    awaitAll(receipts, TaskStatus.COMPLETED);

    assertPartnerStarts(key, 6);
    assertThat(throttlers.state().holders().keySet())
        .as("the orders' mutexes are free")
        .noneMatch(resource -> resource.contains(key));
  }

  /**
   * The {@code tasks} starts of {@code key} (1 per 2 s with a burst of 3, and a sliding window of 2
   * per 2 s in 1-s buckets): each task once; no two consecutive 1-s buckets with more than 2; each
   * start conforming to the rate (GCRA over the sorted starts: a start may come up to the burst
   * tolerance, 4 s, before the key's theoretical arrival time, which each start moves 2 s on; 100
   * ms allowed for when a handler notes its start); and the fourth start at the window's opening, 2
   * s after the first, on the budget the refused attempts did not spend (an interval later, 4 s, if
   * they had).
   */
  private static void assertPartnerStarts(String key, int tasks) {
    List<Run> starts = ThrottledTasks.partnerStarts(key);
    assertThat(starts).extracting(Run::id).as("each ran once").doesNotHaveDuplicates();
    assertThat(starts).hasSize(tasks);
    Map<Long, Integer> perBucket = new HashMap<>();
    for (Run run : starts) {
      perBucket.merge(run.start().toEpochMilli() / 1_000, 1, Integer::sum);
    }
    for (long bucket : perBucket.keySet()) {
      assertThat(perBucket.get(bucket) + perBucket.getOrDefault(bucket - 1, 0))
          .as("starts in the 2 s ending with second %d: %s", bucket, starts)
          .isLessThanOrEqualTo(2);
    }
    long interval = Duration.ofSeconds(2).toMillis();
    long tolerance = 2 * interval; // (burst - 1) intervals
    long slack = 100;
    long tat = Long.MIN_VALUE;
    for (Run run : starts) {
      long start = run.start().toEpochMilli();
      if (tat != Long.MIN_VALUE) {
        assertThat(start)
            .as("%s starts within the key's rate: %s", run.id(), starts)
            .isGreaterThanOrEqualTo(tat - tolerance - slack);
      }
      tat = Math.max(tat, start) + interval;
    }
    Instant first = starts.get(0).start();
    assertThat(Duration.between(first, starts.get(3).start()))
        .as("the key's next starts once the window opens: %s", starts)
        .isLessThan(Duration.ofMillis(2_800));
  }

  @Test
  void aDynamicWindowKeepsEachTenantToItsLimitAndAllWithinTheCapacity() throws Exception {
    // 2 per tenant per 2 s, at most 3 across tenants
    manager.addOrUpdateWindow(
        ThrottlerKind.DYNAMIC_WINDOW,
        "it-tenants",
        WindowOptions.fixed(2, Duration.ofSeconds(2)).withCapacity(3));
    String group = unique("tenants");
    Await.earlyIn(Duration.ofSeconds(2));
    List<TaskReceipt> receipts = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      receipts.add(
          dispatcher.dispatch(new ThrottledTasks.TenantMail(group, "a", group + "-a" + i)));
      receipts.add(
          dispatcher.dispatch(new ThrottledTasks.TenantMail(group, "b", group + "-b" + i)));
    }
    JsonObject view =
        Await.until(
            () ->
                Http.json(
                    Http.send(
                        "GET", api("throttlers/dynamic-window/it-tenants"), null, ADMIN, PASSWORD)),
            v -> v.getInt("inInterval", 0) == 3,
            TIMEOUT,
            v -> "the first window did not fill: " + v);
    assertThat(view.getJsonArray("subWindows").getValuesAs(JsonObject.class))
        .extracting(w -> w.getString("id"))
        .contains("tenant-a", "tenant-b");

    awaitAll(receipts, TaskStatus.COMPLETED);

    Map<Long, Integer> all = new HashMap<>();
    for (String tenant : List.of("a", "b")) {
      Map<Long, Integer> perWindow = new HashMap<>();
      for (Run run : ThrottledTasks.runs(group + "/" + tenant)) {
        long window = run.start().toEpochMilli() / 2_000;
        perWindow.merge(window, 1, Integer::sum);
        all.merge(window, 1, Integer::sum);
      }
      assertThat(perWindow.values()).as("tenant %s per window", tenant).allMatch(n -> n <= 2);
    }
    assertThat(all.values()).as("all tenants per window: %s", all).allMatch(n -> n <= 3);
    assertThat(all.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(6);
  }

  @Test
  void dropEndsTheTaskCancelledWithItsReasonAndTellsItsHandler() throws Exception {
    manager.addOrUpdateSemaphore("it-drop", 1);
    String group = unique("drop");
    TaskReceipt holder = dispatcher.dispatch(new DroppedSend(group, group + "-1", 1_500));
    awaitRunning(group, "the first send");

    TaskReceipt dropped = dispatcher.dispatch(new DroppedSend(group, group + "-2", 0));

    StoredTask cancelled = await(dropped.taskId(), TaskStatus.CANCELLED);
    assertThat(cancelled.lastError())
        .isEqualTo(
            "dropped: semaphore 'it-drop' has all its 1 permits held (throttling action DROP)");
    Await.until(() -> ThrottledTasks.ERRORS.containsKey(group + "-2"), TIMEOUT, () -> "no onError");
    assertThat(ThrottledTasks.ERRORS.get(group + "-2"))
        .isInstanceOf(TaskThrottledException.class)
        .hasMessage(cancelled.lastError());
    assertThat(((TaskThrottledException) ThrottledTasks.ERRORS.get(group + "-2")).throttle())
        .isEqualTo("semaphore:it-drop");
    assertThat(queries.history(dropped.taskId()))
        .anySatisfy(
            a -> {
              assertThat(a.to()).isEqualTo(TaskStatus.CANCELLED);
              assertThat(a.detail()).startsWith("dropped: semaphore 'it-drop'");
            });
    await(holder.taskId(), TaskStatus.COMPLETED);
  }

  @Test
  void aStrictMutexIsKeptWhileItsHolderWaitsForItsRetry() throws Exception {
    String order = unique("strict");
    TaskReceipt flaky = dispatcher.dispatch(new StrictStep(order, order + "-flaky", 100));
    Await.until(
        () -> !ThrottledTasks.runs("strict-" + order).isEmpty(),
        TIMEOUT,
        () -> "the first attempt did not run");
    TaskReceipt next = dispatcher.dispatch(new StrictStep(order, order + "-next", 0));

    await(flaky.taskId(), TaskStatus.COMPLETED);
    await(next.taskId(), TaskStatus.COMPLETED);

    List<Run> runs = ThrottledTasks.runs("strict-" + order);
    assertThat(runs)
        .extracting(Run::id)
        .as("the failed attempt, its retry, and only then the other task of the order")
        .startsWith(order + "-flaky", order + "-flaky");
    // next's own first attempt fails too (every StrictStep fails once); it starts after flaky's
    // retry ended
    Run flakyRetry = runs.get(1);
    runs.stream()
        .filter(r -> r.id().equals(order + "-next"))
        .forEach(r -> assertThat(r.start()).isAfterOrEqualTo(flakyRetry.end()));
  }

  @Test
  void aSemaphoreChangedAtRunTimeLetsMoreInWithoutARestart() throws Exception {
    manager.addOrUpdateSemaphore("it-newsletter", 1);
    String group = unique("grow");
    List<TaskReceipt> receipts = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      receipts.add(dispatcher.dispatch(new Newsletter(group, group + "-" + i, 400)));
    }
    Await.until(
        () -> ThrottledTasks.runs(group).size() >= 1, TIMEOUT, () -> "no newsletter ran at 1");
    assertThat(ThrottledTasks.most(group)).isEqualTo(1);
    // a worker's batch shares one permit and runs one after another: some newsletter waits
    JsonObject waiting =
        Await.until(
            () -> {
              for (TaskReceipt receipt : receipts) {
                JsonObject task =
                    Http.json(
                        Http.send("GET", api("tasks/" + receipt.taskId()), null, ADMIN, PASSWORD));
                if ("semaphore:it-newsletter".equals(task.getString("waitingFor", null))) {
                  return task;
                }
              }
              return null;
            },
            t -> t != null,
            TIMEOUT,
            t -> "no newsletter shows what it waits for");
    assertThat(waiting.getString("status")).isEqualTo("QUEUED");

    manager.addOrUpdateSemaphore("it-newsletter", 3);

    Await.until(() -> ThrottledTasks.most(group) == 3, TIMEOUT, () -> "never 3 at once");
    awaitAll(receipts, TaskStatus.COMPLETED);
    assertThat(ThrottledTasks.most(group)).isEqualTo(3);
  }

  @Test
  void holdsAreTakenAgainFromTheStoreWhenTheStateIsLost() throws Exception {
    String order = unique("lost");
    TaskReceipt running = dispatcher.dispatch(new OrderStep(order, order + "-1", 2_000));
    awaitRunning("order-" + order, "the first step");

    // as after a restart: the holders in memory are gone, the store still has the running task
    throttlers.useState(new LocalThrottlerState());
    int held = throttlers.rebuild(registry.all(), queries, payloads);

    assertThat(held).isGreaterThanOrEqualTo(1);
    TaskReceipt second = dispatcher.dispatch(new OrderStep(order, order + "-2", 0));
    await(running.taskId(), TaskStatus.COMPLETED);
    await(second.taskId(), TaskStatus.COMPLETED);
    List<Run> runs = ThrottledTasks.runs("order-" + order);
    assertThat(runs).extracting(Run::id).containsExactly(order + "-1", order + "-2");
    assertThat(runs.get(1).start()).isAfterOrEqualTo(runs.get(0).end());
  }

  @Test
  void theRestApiDefinesShowsAndAuditsThrottlersForAdminsOnly() throws Exception {
    String id = unique("rest-sem");
    HttpResponse<String> put =
        Http.send("PUT", api("throttlers/semaphore/" + id), "{\"maxCount\":2}", ADMIN, PASSWORD);
    assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
    assertThat(Http.json(put).getInt("limit")).isEqualTo(2);
    Http.send("PUT", api("throttlers/semaphore/" + id), "{\"maxCount\":4}", ADMIN, PASSWORD);

    JsonObject all = Http.json(Http.send("GET", api("throttlers"), null, ADMIN, PASSWORD));
    JsonObject row =
        all.getJsonArray("throttlers").getValuesAs(JsonObject.class).stream()
            .filter(t -> t.getString("id").equals(id))
            .findFirst()
            .orElseThrow();
    assertThat(row.getString("kind")).isEqualTo("semaphore");
    assertThat(row.getInt("limit")).isEqualTo(4);
    assertThat(row.getBoolean("defined")).isTrue();
    JsonObject change =
        all.getJsonArray("changes").getValuesAs(JsonObject.class).stream()
            .filter(c -> c.getString("id").equals(id))
            .findFirst()
            .orElseThrow();
    assertThat(change.getString("by")).isEqualTo(ADMIN);
    assertThat(change.getString("before")).isEqualTo("maxCount=2");
    assertThat(change.getString("after")).isEqualTo("maxCount=4");
    // a handler names it-newsletter: it is listed with the task type using it
    JsonObject newsletter =
        Http.json(
            Http.send("GET", api("throttlers/semaphore/it-newsletter"), null, ADMIN, PASSWORD));
    assertThat(newsletter.getJsonArray("usedBy").getString(0))
        .isEqualTo(Newsletter.class.getName());

    HttpResponse<String> viewer =
        Http.send(
            "PUT",
            api("throttlers/semaphore/" + id),
            "{\"maxCount\":9}",
            TestConfigSource.VIEWER,
            TestConfigSource.VIEWER_PASSWORD);
    assertThat(viewer.statusCode()).isEqualTo(403);
    assertThat(manager.semaphore(id)).contains(4);
  }

  @Test
  void aRateLimitChangedAtRunTimeTakesEffectForTheNextReservations() throws Exception {
    String vip = unique("vip");
    String other = unique("other");
    HttpResponse<String> put =
        Http.send(
            "PUT",
            api("throttlers/rate-limit/Slotted"),
            "{\"permits\":20,\"period\":\"PT1S\",\"burst\":10,\"key\":\"" + vip + "\"}",
            ADMIN,
            PASSWORD);
    assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
    assertThat(Http.json(put).getInt("permits")).isEqualTo(20);

    List<TaskReceipt> fast = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      fast.add(dispatcher.dispatch(new GatedTasks.Slotted(vip, vip + "-" + i)));
    }
    List<TaskReceipt> slow = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      slow.add(dispatcher.dispatch(new GatedTasks.Slotted(other, other + "-" + i)));
    }
    awaitAll(fast, TaskStatus.COMPLETED);
    awaitAll(slow, TaskStatus.COMPLETED);

    List<Long> vipStarts = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      vipStarts.add(GatedTasks.STARTS.get(vip + "-" + i));
    }
    vipStarts.sort(null);
    assertThat(vipStarts.get(7) - vipStarts.get(0))
        .as("8 starts within the changed key's burst of 10, not 7 s at 1 a second")
        .isLessThan(Duration.ofMillis(700).toNanos());
    long otherGap =
        Math.abs(GatedTasks.STARTS.get(other + "-1") - GatedTasks.STARTS.get(other + "-0"));
    assertThat(otherGap)
        .as("another key keeps the annotation's 1 a second")
        .isGreaterThan(Duration.ofMillis(800).toNanos());
    JsonObject all = Http.json(Http.send("GET", api("throttlers"), null, ADMIN, PASSWORD));
    assertThat(all.getJsonArray("rateLimits").getValuesAs(JsonObject.class))
        .anySatisfy(r -> assertThat(r.getString("key", "")).isEqualTo(vip));
    assertThat(all.getJsonArray("changes").getValuesAs(JsonObject.class))
        .anySatisfy(
            c -> {
              assertThat(c.getString("kind")).isEqualTo("rate-limit");
              assertThat(c.getString("id")).isEqualTo("Slotted key " + vip);
              assertThat(c.getString("after")).isEqualTo("permits=20 period=PT1S burst=10");
              assertThat(c.getString("by")).isEqualTo(ADMIN);
            });

    assertThat(
            Http.send(
                    "DELETE",
                    api("throttlers/rate-limit/Slotted?key=" + vip),
                    null,
                    ADMIN,
                    PASSWORD)
                .statusCode())
        .isEqualTo(204);
    assertProblem(
        Http.send(
            "PUT",
            api("throttlers/rate-limit/Slotted"),
            "{\"permits\":0,\"period\":\"PT1S\"}",
            ADMIN,
            PASSWORD),
        400,
        "permits");
    assertProblem(
        Http.send(
            "PUT",
            api("throttlers/rate-limit/OrderStep"),
            "{\"permits\":5,\"period\":\"PT1S\"}",
            ADMIN,
            PASSWORD),
        400,
        null);
  }

  @Test
  void anUpstreamPushBackShiftsTheKeysParkedTasks() throws Exception {
    String key = unique("upstream");
    List<TaskReceipt> receipts = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      receipts.add(dispatcher.dispatch(new ThrottledTasks.UpstreamCall(key, key + "-" + i)));
    }

    awaitAll(receipts, TaskStatus.COMPLETED);

    List<Run> starts =
        ThrottledTasks.UPSTREAM_STARTS.stream().filter(r -> r.group().equals(key)).toList();
    assertThat(starts).hasSize(6);
    String pushedId = starts.get(0).id(); // the key's first call to start was pushed back
    Instant pushed = starts.get(0).start();
    List<Run> after = starts.subList(1, 6);
    assertThat(after)
        .as("nothing of the key starts within the upstream's 2 s: %s", starts)
        .allSatisfy(r -> assertThat(r.start()).isAfterOrEqualTo(pushed.plusMillis(1_950)));
    assertThat(after.get(0).id()).as("the pushed-back call goes first").isEqualTo(pushedId);
    for (int i = 1; i < after.size(); i++) {
      assertThat(Duration.between(after.get(i - 1).start(), after.get(i).start()))
          .as("the parked calls keep their spacing after it: %s", starts)
          .isGreaterThanOrEqualTo(Duration.ofMillis(150));
    }
    int index = Integer.parseInt(pushedId.substring(pushedId.lastIndexOf('-') + 1));
    StoredTask first = store.find(receipts.get(index).taskId()).orElseThrow();
    assertThat(first.attempt()).as("the pushed-back attempt did not count").isEqualTo(1);
    assertThat(first.lastError())
        .isEqualTo("the upstream asked to slow down: retry after PT2S (429 Too Many Requests)");
  }

  @Test
  void badDefinitionsAreRefusedWithAProblemNamingTheField() throws Exception {
    String id = unique("rest-win");
    assertProblem(
        Http.send("PUT", api("throttlers/fixed-window/" + id), "{\"limit\":5}", ADMIN, PASSWORD),
        400,
        "interval");
    assertProblem(
        Http.send(
            "PUT",
            api("throttlers/fixed-window/" + id),
            "{\"limit\":5,\"interval\":\"PT0.5S\"}",
            ADMIN,
            PASSWORD),
        400,
        "interval");
    assertProblem(
        Http.send(
            "PUT",
            api("throttlers/sliding-window/" + id),
            "{\"limit\":0,\"interval\":\"PT4S\",\"buckets\":4}",
            ADMIN,
            PASSWORD),
        400,
        "limit");
    assertProblem(
        Http.send("PUT", api("throttlers/semaphore/" + id), "{\"max\":3}", ADMIN, PASSWORD),
        400,
        "max");
    assertProblem(
        Http.send(
            "PUT", api("throttlers/semaphore/" + id), "{\"maxCount\":\"3\"}", ADMIN, PASSWORD),
        400,
        "maxCount");
    assertProblem(
        Http.send("PUT", api("throttlers/gizmo/" + id), "{}", ADMIN, PASSWORD), 404, null);
    assertThat(
            Http.send("DELETE", api("throttlers/semaphore/" + id), null, ADMIN, PASSWORD)
                .statusCode())
        .isEqualTo(404);
  }

  @Test
  void aSemaphoreInUseIsNotRemoved() throws Exception {
    manager.addOrUpdateSemaphore("it-drop", 1);
    String group = unique("held");
    TaskReceipt holder = dispatcher.dispatch(new DroppedSend(group, group + "-1", 1_500));
    awaitRunning(group, "the send");

    HttpResponse<String> refused =
        Http.send("DELETE", api("throttlers/semaphore/it-drop"), null, ADMIN, PASSWORD);

    assertProblem(refused, 409, null);
    assertThat(Http.json(refused).getString("detail"))
        .startsWith("semaphore 'it-drop' is held by 1 task and cannot be removed");
    JsonObject view =
        Http.json(Http.send("GET", api("throttlers/semaphore/it-drop"), null, ADMIN, PASSWORD));
    assertThat(view.getInt("held")).isEqualTo(1);
    assertThat(view.getJsonArray("holders").getJsonObject(0).getString("owner"))
        .isEqualTo(holder.taskId().toString());
    await(holder.taskId(), TaskStatus.COMPLETED);
  }

  private static void assertProblem(HttpResponse<String> response, int status, String field) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
    if (field != null) {
      assertThat(Http.json(response).getString("parameter")).as(response.body()).isEqualTo(field);
    }
  }

  private URI api(String path) throws Exception {
    return baseUrl.toURI().resolve("api/" + path);
  }

  /** Waits until one task of {@code group} runs; fails saying {@code what} did not start. */
  private static void awaitRunning(String group, String what) throws InterruptedException {
    Await.until(
        () ->
            ThrottledTasks.RUNNING.containsKey(group)
                && ThrottledTasks.RUNNING.get(group).get() == 1,
        TIMEOUT,
        () -> what + " did not start");
  }

  private static void assertApart(List<Run> runs) {
    for (int i = 1; i < runs.size(); i++) {
      assertThat(runs.get(i).start())
          .as("%s starts after %s ended", runs.get(i).id(), runs.get(i - 1).id())
          .isAfterOrEqualTo(runs.get(i - 1).end());
    }
  }

  /** Waits until the wall clock is in the first quarter of an interval of {@code length}. */
  private long countDone(List<TaskReceipt> receipts) {
    return receipts.stream()
        .map(r -> store.find(r.taskId()).orElseThrow().status())
        .filter(s -> s == TaskStatus.COMPLETED)
        .count();
  }

  private void awaitAll(List<TaskReceipt> receipts, TaskStatus status) throws Exception {
    for (TaskReceipt receipt : receipts) {
      await(receipt.taskId(), status);
    }
  }

  private StoredTask await(UUID id, TaskStatus status) throws Exception {
    return Await.until(
        () -> store.find(id).orElseThrow(),
        t -> t.status() == status,
        TIMEOUT,
        t -> "task " + id + " is " + t.status() + " (" + t.lastError() + "), not " + status);
  }

  private static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }
}
