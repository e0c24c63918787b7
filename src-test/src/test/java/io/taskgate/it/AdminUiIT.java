package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.it.engine.GatedTasks;
import io.taskgate.it.engine.ParkingNotesOn;
import io.taskgate.it.engine.TestConfigSource;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The admin pages in a real headless Chromium (Debian's chromium, driven by Selenium) against the
 * WAR on Payara Micro: login and logout, who may open the pages, throttled tasks on the pages, the
 * cancel action, and user data rendered as text. Every step saves a screenshot under {@code
 * src-test/target/screenshots}. The tests run on the client side only; tasks are dispatched through
 * the REST API.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class AdminUiIT {
  private static final String ADMIN = "admin";
  private static final String ADMIN_PASSWORD = "taskgate";

  /** One task of a key per 10 s, on the one-worker "gated" queue: later ones park 10 s apart. */
  private static final String HOT = GatedTasks.Hot.class.getName();

  private static final String WATCHED = io.taskgate.it.engine.WatchedTasks.Watched.class.getName();

  private static final String UPSTREAM =
      io.taskgate.it.engine.ThrottledTasks.UpstreamCall.class.getName();

  @ArquillianResource URL baseUrl;

  private Browser browser;

  @Deployment(testable = false)
  static WebArchive taskgateWar() {
    return EngineIT.taskgateWar(List.of(ParkingNotesOn.class));
  }

  @BeforeEach
  void startBrowser() throws Exception {
    browser = Browser.start();
  }

  @AfterEach
  void closeBrowser() throws Exception {
    if (browser != null) {
      browser.close();
    }
  }

  @Test
  void anonymousAccessToAPageRedirectsToTheLoginPageAndBackAfterLogin() {
    browser.open(baseUrl.toString());
    browser.await(
        "the context root redirected to login", ExpectedConditions.urlContains("/login.xhtml"));
    browser.open(page("admin/tasks.xhtml"));
    browser.await("redirect to the login page", ExpectedConditions.urlContains("/login.xhtml"));
    assertThat(browser.find(By.id("login:username")).isDisplayed()).isTrue();
    browser.screenshot("01-anonymous-redirected-to-login");

    logIn(ADMIN, "wrong");
    browser.await(
        "an error for a wrong password",
        ExpectedConditions.textToBePresentInElementLocated(
            By.id("messages"), "Wrong user name or password"));
    browser.screenshot("02-wrong-password");

    logIn(ADMIN, ADMIN_PASSWORD);
    browser.await("back on the tasks page", ExpectedConditions.urlContains("/admin/tasks.xhtml"));
    browser.screenshot("03-logged-in-back-on-tasks");

    browser.find(By.id("logout:out")).click();
    browser.await("logged out", ExpectedConditions.urlContains("/login.xhtml"));
    browser.open(page("admin/overview.xhtml"));
    browser.await(
        "the login page again after logout", ExpectedConditions.urlContains("/login.xhtml"));
  }

  @Test
  void aViewerCannotOpenTheAdminPages() throws Exception {
    browser.open(page("login.xhtml"));
    logIn(TestConfigSource.VIEWER, TestConfigSource.VIEWER_PASSWORD);
    browser.await("the forbidden page", ExpectedConditions.titleContains("Forbidden"));
    for (String admin :
        new String[] {
          "admin/overview.xhtml",
          "admin/tasks.xhtml",
          "admin/rate-limits.xhtml",
          "admin/throttlers.xhtml"
        }) {
      browser.open(page(admin));
      assertThat(browser.driver().getTitle()).as(admin).contains("Forbidden");
      assertThat(browser.pageText()).as(admin).doesNotContain("Log out");
    }
    browser.screenshot("04-viewer-forbidden");
  }

  @Test
  void theApiStillAnswersBasicWithoutARedirect() throws Exception {
    HttpResponse<String> anonymous = Http.send("GET", api("tasks"), null, null, null);
    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(anonymous.headers().firstValue("WWW-Authenticate"))
        .hasValue("Basic realm=\"taskgate\"");
    assertThat(Http.send("GET", api("tasks"), null, ADMIN, ADMIN_PASSWORD).statusCode())
        .isEqualTo(200);
  }

  @Test
  void aThrottledKeyAppearsLiveWithItsNextSlotAndAParkedTaskCanBeCancelled() throws Exception {
    String key = "ui-" + UUID.randomUUID().toString().substring(0, 8);
    logInAsAdmin();
    browser.open(page("admin/rate-limits.xhtml?q=" + key));
    browser.await(
        "an empty table",
        ExpectedConditions.textToBePresentInElementLocated(By.id("live"), "No keys match"));
    markPage();

    // the first runs at once; the other four park until +10 s, +20 s, +30 s, +40 s
    List<JsonObject> receipts = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      receipts.add(dispatch(HOT, key, key + "-" + i));
    }
    JsonObject last = receipts.get(4);
    Instant lastSlot = Instant.parse(last.getString("estimatedStart"));
    assertThat(lastSlot).isAfter(Instant.now().plusSeconds(30));

    // live refresh: the row appears without a reload of the page
    WebElement row =
        browser.await(
            "the throttled key's row",
            ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#keys tr.key-row")));
    assertPageNotReloaded();
    assertThat(row.findElement(By.cssSelector("td.key")).getText()).isEqualTo(key);
    assertThat(row.getText()).contains("Throttled", "Hot", "1 per 10 s, burst 1");
    assertThat(Integer.parseInt(row.findElement(By.cssSelector("td.parked")).getText()))
        .isBetween(3, 4);
    // a new task would get the slot after the last reserved one
    String nextSlot = row.findElement(By.cssSelector("td.next-slot")).getText();
    Instant shownNext = shownInstant(row.findElement(By.cssSelector("td.next-slot time")));
    assertThat(shownNext)
        .isAfterOrEqualTo(lastSlot.plusSeconds(9))
        .isBefore(lastSlot.plusSeconds(11));
    assertThat(nextSlot).contains("in ");
    browser.screenshot("05-rate-limits-throttled-key");

    // the key's pacing: the start that ran, the slots parked tasks wait for
    row.findElement(By.cssSelector("td.key a")).click();
    browser.await(
        "the pacing timeline", ExpectedConditions.visibilityOfElementLocated(By.id("timeline")));
    assertThat(browser.find(By.id("pacing-key")).getText()).isEqualTo(key);
    assertThat(browser.driver().findElements(By.cssSelector("#timeline .mark-parked")).size())
        .isBetween(3, 4);
    browser.await(
        "the first task's start on the timeline",
        ExpectedConditions.numberOfElementsToBeMoreThan(
            By.cssSelector("#timeline .mark-started"), 0));
    assertThat(browser.driver().findElements(By.cssSelector("#timeline .mark-reserved")))
        .hasSizeGreaterThanOrEqualTo(3);
    // the smallest window that shows every parked slot (+40 s: a minute), on an axis relative to
    // now that stays put across live refreshes, with every label inside the drawing
    assertThat(browser.find(By.id("timeline")).getAttribute("data-window")).isEqualTo("1m");
    List<String> axis = axis();
    assertThat(axis).first().asString().startsWith("10 s ago@");
    for (int refresh = 0; refresh < 2; refresh++) {
      browser.awaitGone("a live refresh of the timeline", browser.find(By.id("timeline")));
      browser.await(
          "the timeline again", ExpectedConditions.visibilityOfElementLocated(By.id("timeline")));
      assertThat(axis()).as("the axis after refresh " + (refresh + 1)).isEqualTo(axis);
    }
    assertThat(browser.labelsOutside("timeline")).isEmpty();
    browser.screenshot("06-rate-limits-pacing-timeline");

    // the overview counts the throttled tasks, on their queue too, and lists the key among the
    // most throttled ones with when it drains: at its last parked task's slot
    browser.open(page("admin/overview.xhtml"));
    WebElement top =
        browser.find(
            By.xpath("//table[@id='top-keys']//tr[td[contains(@class,'key')]='" + key + "']"));
    assertThat(Integer.parseInt(top.findElement(By.cssSelector("td.parked")).getText()))
        .isBetween(3, 4);
    assertThat(top.findElement(By.cssSelector("td.drains")).getText())
        .matches("in \\d+(\\.\\d)? s");
    assertThat(top.findElement(By.cssSelector("td.next-slot")).getText()).startsWith("in ");
    assertThat(top.getText()).contains("Hot", "1 per 10 s");
    assertThat(Integer.parseInt(browser.find(By.id("count-THROTTLED")).getText()))
        .isGreaterThanOrEqualTo(3);
    assertThat(browser.find(By.id("queues")).getText()).contains("gated", "throttled");
    // and the instances sharing the database: this one, alive, its budgets local
    assertThat(browser.find(By.id("instances")).getText()).contains("(this one)", "alive");
    // with what it holds: its parked tasks and their keys, read as the page was built
    assertThat(browser.find(By.cssSelector("#instances tr.instance.self td.parked")).getText())
        .matches("[1-9][0-9]* \\([1-9][0-9]*\\)");
    assertThat(browser.find(By.id("limiter")).getText()).contains("in this instance");
    // the last hour, drawn: a chart of the four counts, for all or one queue or task type
    browser.await(
        "the chart",
        ExpectedConditions.presenceOfElementLocated(By.cssSelector("#last-hour canvas")));
    assertThat(browser.find(By.id("last-hour")).getText())
        .contains("started", "parked", "rejected", "failed");
    org.openqa.selenium.support.ui.Select series =
        new org.openqa.selenium.support.ui.Select(browser.find(By.id("chart-series")));
    assertThat(series.getOptions())
        .extracting(WebElement::getText)
        .contains("all queues and task types", "queue gated", "task type Hot");
    series.selectByVisibleText("task type Hot");
    assertThat(browser.find(By.cssSelector("#last-hour canvas")).isDisplayed()).isTrue();
    assertThat(browser.find(By.id("last-hour-summary")).getText())
        .containsPattern("[1-9]\\d* parked");
    browser.screenshot("07-overview-throttled");

    // the tasks list marks parked tasks; the detail says until when
    browser.open(page("admin/tasks.xhtml?type=" + url(HOT) + "&status=QUEUED"));
    String lastId = last.getString("id");
    WebElement listed =
        browser.await(
            "the parked task in the list",
            ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("tr.task-row[data-id='" + lastId + "']")));
    assertThat(listed.getText()).contains("QUEUED", "Throttled");
    browser.screenshot("08-tasks-throttled-badges");
    listed.findElement(By.tagName("a")).click();
    browser.await(
        "the task's page", ExpectedConditions.visibilityOfElementLocated(By.id("throttled-until")));
    assertThat(browser.pageText()).contains("Throttled Until");
    assertThat(shownInstant(browser.find(By.cssSelector("#throttled-until time"))))
        .isEqualTo(lastSlot);
    assertThat(browser.find(By.id("status")).getText()).contains("QUEUED", "Throttled");
    browser.screenshot("09-task-throttled-until");

    // a forged cancel (the page's view state, but no CSRF token) is refused and changes nothing
    String viewState =
        browser
            .find(By.cssSelector("form#actions input[name='jakarta.faces.ViewState']"))
            .getAttribute("value");
    for (String token : new String[] {null, "forged"}) {
      HttpResponse<String> forged = forgedCancel(viewState, token);
      assertThat(forged.statusCode()).as("forged cancel, token %s", token).isEqualTo(403);
      assertThat(forged.body()).doesNotContain("Exception", "at io.taskgate");
    }
    assertThat(taskStatus(lastId)).isEqualTo("QUEUED");
    // the right token with a view state Faces never issued: the error page, no stack trace
    String token =
        browser.find(By.cssSelector("form#actions input[name='_csrf']")).getAttribute("value");
    HttpResponse<String> stale = forgedCancel("-1:-1", token);
    assertThat(stale.statusCode()).isEqualTo(500);
    assertThat(stale.body())
        .contains("Something went wrong")
        .doesNotContain("Exception", "at io.taskgate", "at jakarta.");
    assertThat(taskStatus(lastId)).isEqualTo("QUEUED");

    browser.find(By.id("actions:cancel")).click();
    browser.await(
        "the task cancelled",
        ExpectedConditions.textToBePresentInElementLocated(By.id("status"), "CANCELLED"));
    assertThat(browser.pageText()).contains("Task cancelled.").doesNotContain("Throttled Until");
    assertThat(browser.driver().findElements(By.id("actions:cancel"))).isEmpty();
    assertThat(browser.find(By.id("history")).getText()).contains("QUEUED", "CANCELLED");
    // the audit says until when it was parked, and who cancelled it
    WebElement parkedNote = browser.find(By.cssSelector("#history tr.parked-note"));
    assertThat(parkedNote.getText())
        .contains(
            "parked",
            "Parked until " + lastSlot.truncatedTo(java.time.temporal.ChronoUnit.MILLIS),
            "the next free slot of key " + key + " (1 per 10 s, burst 1)");
    assertThat(browser.find(By.id("history")).getText())
        .contains("Cancelled by admin on the admin page");
    assertThat(taskStatus(lastId)).isEqualTo("CANCELLED");
    browser.screenshot("10-task-cancelled");
  }

  @Test
  void liveRefreshKeepsTheFocusAndSaysSoWhenTheSessionEnds() throws Exception {
    logInAsAdmin();
    browser.open(page("admin/rate-limits.xhtml"));
    markPage();
    WebElement search = browser.find(By.id("q"));
    search.click();
    search.sendKeys("tenant-4");
    for (int refresh = 0; refresh < 3; refresh++) {
      awaitLiveRefresh("totals");
    }
    assertThat(activeElementId()).as("the focus after 3 refreshes").isEqualTo("q");
    assertThat(search.getAttribute("value")).isEqualTo("tenant-4");
    assertPageNotReloaded();
    WebElement state = browser.find(By.id("live-state"));
    assertThat(state.getAttribute("aria-live")).isEqualTo("polite");
    assertThat(state.getAttribute("data-state")).isEqualTo("live");
    assertThat(state.getText()).startsWith("Live: updated ");

    // the keyboard inside the live figures pauses the refresh rather than lose its place
    browser.driver().executeScript("document.getElementById('sort-parked').focus();");
    browser.await(
        "the refresh paused",
        ExpectedConditions.attributeToBe(By.id("live-state"), "data-state", "paused"));
    assertThat(activeElementId()).isEqualTo("sort-parked");
    browser.driver().executeScript("document.activeElement.blur();");
    browser.await(
        "the refresh going again",
        ExpectedConditions.attributeToBe(By.id("live-state"), "data-state", "live"));

    // the server does not answer (the page's requests sent to a closed port): the page says so,
    // and is live again once it answers
    browser
        .driver()
        .executeScript(
            "window.taskgateOpen = XMLHttpRequest.prototype.open;"
                + " XMLHttpRequest.prototype.open = function (m, u, a) {"
                + " return window.taskgateOpen.call(this, m, 'http://127.0.0.1:9/', true); };");
    browser.await(
        "the connection lost",
        ExpectedConditions.attributeToBe(By.id("live-state"), "data-state", "lost"));
    assertThat(browser.find(By.id("live-state")).getText())
        .startsWith("Connection lost at ")
        .contains("retrying");
    browser.driver().executeScript("XMLHttpRequest.prototype.open = window.taskgateOpen;");
    browser.await(
        "live again", ExpectedConditions.attributeToBe(By.id("live-state"), "data-state", "live"));

    // the session ends (its cookie gone): the next refresh is refused, and the page says so
    String here = browser.currentUrl();
    browser.driver().manage().deleteAllCookies();
    WebElement banner =
        browser.await(
            "the session-ended banner",
            ExpectedConditions.visibilityOfElementLocated(By.id("session-ended")));
    assertThat(banner.getAttribute("role")).isEqualTo("alert");
    assertThat(banner.getText()).contains("Your session has ended", "Log in again");
    assertThat(browser.find(By.id("live-state")).getAttribute("data-state")).isEqualTo("ended");
    assertThat(browser.find(By.id("relogin")).getAttribute("href")).isEqualTo(here);
    assertThat(browser.alertOpen()).isFalse();
    browser.screenshot("11-session-ended-banner");
    browser.find(By.id("relogin")).click();
    browser.await("the login page", ExpectedConditions.urlContains("/login.xhtml"));
    logIn(ADMIN, ADMIN_PASSWORD);
    browser.await("back on the page", ExpectedConditions.urlContains("/admin/rate-limits.xhtml"));
  }

  @Test
  void everyPageMeetsWcagAaAndFitsAPhoneWithoutSidewaysScrolling() throws Exception {
    String key = "a11y-" + UUID.randomUUID().toString().substring(0, 8);
    List<JsonObject> receipts = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      receipts.add(dispatch(HOT, key, key + "-" + i)); // one runs, two park
    }
    List<String> pages =
        List.of(
            "admin/overview.xhtml",
            "admin/tasks.xhtml?type=" + url(HOT),
            "admin/task.xhtml?id=" + receipts.get(2).getString("id"),
            "admin/rate-limits.xhtml?q=" + key + "&selType=" + url(HOT) + "&selKey=" + key,
            "admin/throttlers.xhtml");
    for (int width : new int[] {1280, 420}) {
      browser.resize(width, 900);
      browser.open(page("login.xhtml"));
      assertThat(browser.seriousAccessibilityProblems()).as("login at " + width).isEmpty();
      assertThat(browser.scrollsSideways()).as("login at " + width).isFalse();
      if (width == 1280) {
        logIn(ADMIN, ADMIN_PASSWORD);
        browser.await("the overview", ExpectedConditions.urlContains("/admin/overview.xhtml"));
      }
      for (String path : pages) {
        browser.open(page(path));
        browser.await(
            "the page live", ExpectedConditions.presenceOfElementLocated(By.id("live-state")));
        String name = path.substring(6, path.indexOf(".xhtml")) + " at " + width + " px";
        assertThat(browser.seriousAccessibilityProblems()).as(name).isEmpty();
        assertThat(browser.scrollsSideways()).as(name + " scrolls sideways").isFalse();
        browser.screenshot("30-" + name.replace(' ', '-'));
      }
    }
  }

  @Test
  void anAdminCancelsEveryParkedTaskOfAKeyAfterConfirming() throws Exception {
    String key = "bulk-" + UUID.randomUUID().toString().substring(0, 8);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      ids.add(dispatch(HOT, key, key + "-" + i).getString("id")); // one runs, three park
    }
    Await.until(
        () ->
            Http.json(Http.send("GET", api("rate-limits?key=" + key), null, ADMIN, ADMIN_PASSWORD))
                .getJsonArray("items"),
        items -> !items.isEmpty() && items.getJsonObject(0).getInt("parkedCount") == 3,
        Duration.ofSeconds(20),
        items -> "three parked on " + key + ": " + items);
    logInAsAdmin();
    // the key filter narrows the task list to the key's tasks
    browser.open(page("admin/tasks.xhtml"));
    browser.find(By.id("f-key")).sendKeys(key);
    browser.find(By.id("f-apply")).click();
    browser.await("the key's tasks", ExpectedConditions.urlContains("key=" + key));
    List<WebElement> rows = browser.driver().findElements(By.cssSelector("tr.task-row"));
    assertThat(rows)
        .extracting(r -> r.getAttribute("data-id"))
        .containsExactlyInAnyOrderElementsOf(ids);
    assertThat(rows)
        .extracting(r -> r.findElement(By.cssSelector("td.rate-key")).getText())
        .containsOnly(key);
    browser.screenshot("15-tasks-of-a-key");
    // and to its parked ones
    new org.openqa.selenium.support.ui.Select(browser.find(By.id("f-throttled")))
        .selectByValue("parked");
    browser.find(By.id("f-apply")).click();
    browser.await("the parked ones", ExpectedConditions.urlContains("throttled=parked"));
    assertThat(browser.driver().findElements(By.cssSelector("tr.task-row")))
        .extracting(r -> r.getAttribute("data-id"))
        .containsExactlyInAnyOrderElementsOf(ids.subList(1, 4));
    browser.open(
        page("admin/rate-limits.xhtml?q=" + key + "&selType=" + url(HOT) + "&selKey=" + key));
    WebElement ask =
        browser.await(
            "the bulk cancel button",
            ExpectedConditions.visibilityOfElementLocated(By.id("bulk:ask")));
    assertThat(ask.getAttribute("value")).isEqualTo("Cancel the 3 parked tasks of this key…");
    ask.click();
    WebElement question =
        browser.await(
            "the question", ExpectedConditions.visibilityOfElementLocated(By.id("bulk-question")));
    assertThat(question.getText()).contains("Hot", key, "(3 now)", "each one's audit");
    browser.screenshot("14-bulk-cancel-confirm");
    // changing one's mind changes nothing
    browser.find(By.id("bulk:keep")).click();
    browser.await(
        "the button again", ExpectedConditions.visibilityOfElementLocated(By.id("bulk:ask")));
    assertThat(ids.subList(1, 4).stream().map(this::statusOf)).containsOnly("QUEUED");

    browser.find(By.id("bulk:ask")).click();
    browser
        .await("the question", ExpectedConditions.visibilityOfElementLocated(By.id("bulk:confirm")))
        .click();
    assertThat(
            browser
                .await(
                    "the result",
                    ExpectedConditions.visibilityOfElementLocated(By.id("bulk-result")))
                .getText())
        .isEqualTo("3 parked tasks of key " + key + " were cancelled.");
    for (String id : ids.subList(1, 4)) {
      JsonObject task =
          Http.json(Http.send("GET", api("tasks/" + id), null, ADMIN, ADMIN_PASSWORD));
      assertThat(task.getString("status")).isEqualTo("CANCELLED");
      assertThat(task.getString("lastError"))
          .isEqualTo("Cancelled by admin on the admin page, with every task parked on key " + key);
    }
    Await.until(
        () -> statusOf(ids.get(0)),
        "COMPLETED"::equals,
        Duration.ofSeconds(20),
        status -> "the one that ran is " + status);
  }

  @Test
  void anAdminRequeuesACancelledTaskAndEveryListedOneThenDeletesThemAfterConfirming()
      throws Exception {
    String key = "requeue-" + UUID.randomUUID().toString().substring(0, 8);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      // 1 per 10 minutes: one runs, three park, and whatever is requeued parks again
      ids.add(dispatch(WATCHED, key, key + "-" + i).getString("id"));
    }
    Await.until(
        () -> statusOf(ids.get(0)),
        "COMPLETED"::equals,
        Duration.ofSeconds(20),
        status -> "the first one is " + status);
    for (String id : ids.subList(1, 4)) {
      assertThat(Http.send("DELETE", api("tasks/" + id), null, ADMIN, ADMIN_PASSWORD).statusCode())
          .isEqualTo(204);
    }
    logInAsAdmin();
    // the overview says how long ended tasks are kept
    assertThat(browser.find(By.id("keep-COMPLETED")).getText()).isEqualTo("7 d");
    assertThat(browser.find(By.id("keep-FAILED")).getText()).isEqualTo("30 d");
    assertThat(browser.find(By.id("retention")).getText()).contains("taskgate.retention.*");

    // one, from its page
    browser.open(page("admin/task.xhtml?id=" + ids.get(1)));
    WebElement requeue =
        browser.await(
            "the requeue button",
            ExpectedConditions.visibilityOfElementLocated(By.id("ended:requeue")));
    assertThat(browser.driver().findElements(By.id("actions:cancel"))).isEmpty();
    for (int width : new int[] {1280, 420}) {
      browser.resize(width, 900);
      assertThat(browser.seriousAccessibilityProblems()).as("task page at " + width).isEmpty();
      assertThat(browser.scrollsSideways()).as("task page at " + width).isFalse();
    }
    browser.resize(1280, 900);
    requeue = browser.find(By.id("ended:requeue"));
    requeue.click();
    browser.await(
        "the task queued again",
        ExpectedConditions.textToBePresentInElementLocated(By.id("status"), "QUEUED"));
    assertThat(browser.pageText()).contains("Task queued again: it runs from its first attempt.");
    assertThat(browser.driver().findElements(By.id("ended:requeue"))).isEmpty();
    assertThat(browser.find(By.id("history")).getText())
        .contains("CANCELLED → QUEUED", "Requeued by admin on the admin page");
    browser.screenshot("16-task-requeued");

    // the rest, from the list of the key's cancelled tasks
    browser.open(page("admin/tasks.xhtml?status=CANCELLED&key=" + key));
    WebElement ask =
        browser.await(
            "the bulk requeue button",
            ExpectedConditions.visibilityOfElementLocated(By.id("requeue:ask")));
    assertThat(ask.getAttribute("value")).isEqualTo("Requeue the 2 CANCELLED tasks listed…");
    ask.click();
    WebElement question =
        browser.await(
            "the question",
            ExpectedConditions.visibilityOfElementLocated(By.id("requeue-question")));
    assertThat(question.getText()).contains("CANCELLED", "(2 now)", "its audit");
    for (int width : new int[] {1280, 420}) {
      browser.resize(width, 900);
      assertThat(browser.seriousAccessibilityProblems()).as("confirm at " + width).isEmpty();
      assertThat(browser.scrollsSideways()).as("confirm at " + width).isFalse();
    }
    browser.resize(1280, 900);
    browser.screenshot("17-bulk-requeue-confirm");
    browser.find(By.id("requeue:keep")).click();
    browser.await(
        "the button again", ExpectedConditions.visibilityOfElementLocated(By.id("requeue:ask")));
    assertThat(ids.subList(2, 4).stream().map(this::statusOf)).containsOnly("CANCELLED");

    browser.find(By.id("requeue:ask")).click();
    browser
        .await(
            "the question", ExpectedConditions.visibilityOfElementLocated(By.id("requeue:confirm")))
        .click();
    assertThat(
            browser
                .await(
                    "the result",
                    ExpectedConditions.visibilityOfElementLocated(By.id("requeue-result")))
                .getText())
        .isEqualTo("2 tasks were queued again.");
    for (String id : ids.subList(1, 4)) {
      assertThat(statusOf(id)).isNotEqualTo("CANCELLED");
      JsonObject task =
          Http.json(Http.send("GET", api("tasks/" + id), null, ADMIN, ADMIN_PASSWORD));
      assertThat(task.getInt("attempt")).isZero();
      Http.send("DELETE", api("tasks/" + id), null, ADMIN, ADMIN_PASSWORD); // parked again: done
    }
    assertThat(
            Http.json(Http.send("GET", api("tasks/" + ids.get(3)), null, ADMIN, ADMIN_PASSWORD))
                .getJsonArray("history")
                .getValuesAs(JsonObject.class)
                .stream()
                .map(h -> h.getString("detail", ""))
                .toList())
        .anyMatch(
            d ->
                d.startsWith(
                    "Requeued by admin on the admin page, with every task matching status"
                        + " CANCELLED, key "
                        + key));

    // cancelled again: deleted, with their audit, after confirming
    browser.open(page("admin/tasks.xhtml?status=CANCELLED&key=" + key));
    WebElement delete =
        browser.await(
            "the bulk delete button",
            ExpectedConditions.visibilityOfElementLocated(By.id("delete:ask")));
    assertThat(delete.getAttribute("value")).isEqualTo("Delete the 3 CANCELLED tasks listed…");
    delete.click();
    assertThat(
            browser
                .await(
                    "the question",
                    ExpectedConditions.visibilityOfElementLocated(By.id("delete-question")))
                .getText())
        .contains("CANCELLED", "(3 now)", "cannot be brought back");
    for (int width : new int[] {1280, 420}) {
      browser.resize(width, 900);
      assertThat(browser.seriousAccessibilityProblems()).as("delete at " + width).isEmpty();
      assertThat(browser.scrollsSideways()).as("delete at " + width).isFalse();
    }
    browser.resize(1280, 900);
    browser.screenshot("18-bulk-delete-confirm");
    browser.find(By.id("delete:confirm")).click();
    assertThat(
            browser
                .await(
                    "the result",
                    ExpectedConditions.visibilityOfElementLocated(By.id("delete-result")))
                .getText())
        .isEqualTo("3 tasks were deleted, with their audit.");
    for (String id : ids.subList(1, 4)) {
      assertThat(Http.send("GET", api("tasks/" + id), null, ADMIN, ADMIN_PASSWORD).statusCode())
          .isEqualTo(404);
    }
    assertThat(statusOf(ids.get(0))).as("COMPLETED: not listed, kept").isEqualTo("COMPLETED");
  }

  @Test
  void anAdminChangesAndResetsALimiterAndATaskTypesRateFromThePages() throws Exception {
    logInAsAdmin();

    // a limiter, on the Throttlers page
    browser.open(page("admin/throttlers.xhtml"));
    new org.openqa.selenium.support.ui.Select(browser.find(By.id("limiter:name")))
        .selectByValue("it-waiting");
    fill("limiter:permits", "0");
    fill("limiter:period", "PT1M");
    browser.find(By.id("limiter:save")).click();
    assertThat(awaitMessage("at least 1"))
        .isEqualTo("Not changed: permits must be at least 1, was 0.");
    fill("limiter:permits", "7");
    browser.find(By.id("limiter:save")).click();
    assertThat(awaitMessage("now allows"))
        .as("no burst given: GCRA's default, 1")
        .isEqualTo("Limiter 'it-waiting' now allows 7 per 1 min, burst 1.");
    JsonObject limiter =
        Http.json(Http.send("GET", api("limiters/it-waiting"), null, ADMIN, ADMIN_PASSWORD));
    assertThat(limiter.getInt("permits")).isEqualTo(7);
    assertThat(limiter.getBoolean("changed")).isTrue();
    for (int width : new int[] {1280, 420}) {
      browser.resize(width, 900);
      assertThat(browser.seriousAccessibilityProblems()).as("throttlers at " + width).isEmpty();
      assertThat(browser.scrollsSideways()).as("throttlers at " + width).isFalse();
    }
    browser.resize(1280, 900);
    browser.screenshot("19-limiter-changed");
    assertThat(browser.find(By.id("changes")).getText()).contains("it-waiting", "admin");
    new org.openqa.selenium.support.ui.Select(browser.find(By.id("limiter:name")))
        .selectByValue("it-waiting");
    browser.find(By.id("limiter:reset")).click();
    assertThat(awaitMessage("declared limit"))
        .isEqualTo("Limiter 'it-waiting' has its declared limit again.");
    assertThat(
            Http.json(Http.send("GET", api("limiters/it-waiting"), null, ADMIN, ADMIN_PASSWORD))
                .getBoolean("changed"))
        .isFalse();

    // a task type's rate, for one key, on the Rate Limits page
    String key = "form-" + UUID.randomUUID().toString().substring(0, 8);
    browser.open(page("admin/rate-limits.xhtml"));
    new org.openqa.selenium.support.ui.Select(browser.find(By.id("rate:type")))
        .selectByValue(WATCHED);
    fill("rate:permits", "30");
    fill("rate:period", "PT1M");
    fill("rate:burst", "10");
    browser.find(By.id("rate:save")).click();
    assertThat(awaitMessage("key is required"))
        .startsWith("Not changed: key is required: name the key whose rate to change");
    new org.openqa.selenium.support.ui.Select(browser.find(By.id("rate:type")))
        .selectByValue(WATCHED);
    fill("rate:key", key);
    fill("rate:permits", "many");
    browser.find(By.id("rate:save")).click();
    assertThat(awaitMessage("whole number"))
        .isEqualTo("Not changed: permits must be a whole number, was many.");
    fill("rate:permits", "30");
    browser.find(By.id("rate:save")).click();
    assertThat(awaitMessage("now get"))
        .isEqualTo("Watched tasks of key " + key + " now get 30 per 1 min, burst 10.");
    assertThat(
            Http.json(Http.send("GET", api("throttlers"), null, ADMIN, ADMIN_PASSWORD))
                .getJsonArray("rateLimits")
                .getValuesAs(JsonObject.class)
                .stream()
                .filter(r -> key.equals(r.getString("key", null)))
                .map(
                    r ->
                        r.getString("taskType")
                            + " "
                            + r.getInt("permits")
                            + " "
                            + r.getInt("burst"))
                .toList())
        .containsExactly(WATCHED + " 30 10");
    for (int width : new int[] {1280, 420}) {
      browser.resize(width, 900);
      assertThat(browser.seriousAccessibilityProblems()).as("rate limits at " + width).isEmpty();
      assertThat(browser.scrollsSideways()).as("rate limits at " + width).isFalse();
    }
    browser.resize(1280, 900);
    browser.screenshot("20-rate-changed");
    new org.openqa.selenium.support.ui.Select(browser.find(By.id("rate:type")))
        .selectByValue(WATCHED);
    fill("rate:key", key);
    browser.find(By.id("rate:reset")).click();
    assertThat(awaitMessage("declared rate"))
        .isEqualTo("Watched tasks of key " + key + " get the declared rate again.");
    assertThat(
            Http.json(Http.send("GET", api("throttlers"), null, ADMIN, ADMIN_PASSWORD))
                .getJsonArray("rateLimits")
                .getValuesAs(JsonObject.class))
        .noneMatch(r -> key.equals(r.getString("key", null)));
  }

  private void fill(String id, String text) {
    WebElement field = browser.find(By.id(id));
    field.clear();
    field.sendKeys(text);
  }

  /** The page's message that contains {@code text}, once shown. */
  private String awaitMessage(String text) {
    return browser
        .await(
            "a message with '" + text + "'",
            ExpectedConditions.visibilityOfElementLocated(
                By.xpath("//ul[contains(@class,'msgs')]/li[contains(., \"" + text + "\")]")))
        .getText();
  }

  private String statusOf(String id) {
    try {
      return taskStatus(id);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Waits until the live region holding {@code id} was rendered again. */
  private void awaitLiveRefresh(String id) {
    browser.awaitGone("a live refresh", browser.find(By.id(id)));
    browser.await("the live region again", ExpectedConditions.presenceOfElementLocated(By.id(id)));
  }

  private String activeElementId() {
    return String.valueOf(browser.driver().executeScript("return document.activeElement.id;"));
  }

  /**
   * The instant a {@code <time>} stands for, checked against what the page shows: the browser's
   * local time to the second, with UTC to the second on hover.
   */
  private static Instant shownInstant(WebElement time) {
    Instant at = Instant.parse(time.getAttribute("datetime"));
    assertThat(time.getAttribute("title"))
        .isEqualTo(
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
                .withZone(ZoneOffset.UTC)
                .format(at));
    assertThat(time.getAttribute("data-local")).as("shown in the browser's zone").isEqualTo("true");
    assertThat(time.getText())
        .contains(String.valueOf(at.atZone(ZoneOffset.UTC).getYear()))
        .doesNotContainPattern(":\\d\\d\\.\\d{3}");
    return at;
  }

  /** The timeline's axis: each label with its position. */
  private List<String> axis() {
    return browser.driver().findElements(By.cssSelector("#timeline text.tick")).stream()
        .map(t -> t.getText() + "@" + t.getAttribute("x"))
        .toList();
  }

  @Test
  void anAdminPausesAKeyOnTheOverviewSeesItsTasksHeldAndResumesIt() throws Exception {
    String key = "ui-pause-" + UUID.randomUUID().toString().substring(0, 8);
    logInAsAdmin();
    browser.open(page("admin/overview.xhtml"));
    new org.openqa.selenium.support.ui.Select(browser.find(By.id("pause:scope")))
        .selectByValue("key");
    fill("pause:name", key);
    fill("pause:reason", "<i>their API</i> is down");
    browser.find(By.id("pause:pause-button")).click();
    assertThat(awaitMessage("Paused key"))
        .isEqualTo("Paused key " + key + ": its queued tasks wait until it is resumed (0 now).");
    WebElement row = pauseRow(key);
    assertThat(row.findElement(By.cssSelector(".reason")).getText())
        .as("rendered as text")
        .isEqualTo("<i>their API</i> is down");
    assertThat(row.getText()).contains("key", key, ADMIN);
    new org.openqa.selenium.support.ui.Select(browser.find(By.id("pause:scope")))
        .selectByValue("queue");
    fill("pause:name", "no-such-queue");
    browser.find(By.id("pause:pause-button")).click();
    assertThat(awaitMessage("Not paused"))
        .startsWith("Not paused: name: no queue is called 'no-such-queue'; the queues are ");

    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      ids.add(dispatch(HOT, key, key + "-" + i).getString("id"));
    }
    Await.until(
        () -> Http.send("GET", api("pauses"), null, ADMIN, ADMIN_PASSWORD).body(),
        body -> body.contains("\"waitingHere\":2"),
        Duration.ofSeconds(20),
        body -> "both tasks wait for the pause: " + body);
    browser.open(page("admin/tasks.xhtml?key=" + url(key)));
    for (String id : ids) {
      assertThat(browser.find(By.cssSelector("tr.task-row[data-id='" + id + "']")).getText())
          .contains("QUEUED", "Paused: key " + key);
    }
    browser.open(page("admin/task.xhtml?id=" + ids.get(0)));
    assertThat(browser.find(By.id("paused")).getText()).contains("key " + key, "is paused");
    for (int width : new int[] {1280, 420}) {
      browser.resize(width, 900);
      for (String path : List.of("admin/overview.xhtml", "admin/task.xhtml?id=" + ids.get(0))) {
        browser.open(page(path));
        String name = path + " with a pause at " + width;
        assertThat(browser.seriousAccessibilityProblems()).as(name).isEmpty();
        assertThat(browser.scrollsSideways()).as(name + " scrolls sideways").isFalse();
      }
    }
    browser.resize(1280, 900);
    browser.open(page("admin/overview.xhtml"));
    browser.screenshot("21-paused");
    assertThat(ids).allSatisfy(id -> assertThat(taskStatus(id)).isEqualTo("QUEUED"));

    pauseRow(key).findElement(By.cssSelector("input.resume")).click();
    assertThat(awaitMessage("Resumed"))
        .isEqualTo("Resumed key " + key + ": its tasks start again.");
    for (String id : ids) {
      Await.until(
          () -> taskStatus(id),
          "COMPLETED"::equals,
          Duration.ofSeconds(20),
          status -> "task " + id + " after the resume: " + status);
    }
    assertThat(browser.driver().findElements(By.cssSelector("tr.pause[data-name='" + key + "']")))
        .isEmpty();
  }

  private WebElement pauseRow(String name) {
    return browser.find(By.cssSelector("tr.pause[data-name='" + name + "']"));
  }

  @Test
  void keysAndPayloadsAreRenderedAsText() throws Exception {
    String script = "<script>alert(1)</script>";
    String image = "\"><img src=x onerror=alert(2)>";
    dispatch(HOT, script, "xss-0");
    JsonObject parked = dispatch(HOT, script, "xss-1");
    dispatch(HOT, image, "xss-2");
    dispatch(HOT, image, "xss-3");

    logInAsAdmin();
    browser.open(page("admin/rate-limits.xhtml?q=" + url("alert(")));
    browser.await(
        "both keys listed",
        ExpectedConditions.numberOfElementsToBe(By.cssSelector("#keys tr.key-row"), 2));
    List<String> shown =
        browser.driver().findElements(By.cssSelector("#keys td.key")).stream()
            .map(WebElement::getText)
            .toList();
    assertThat(shown).containsExactlyInAnyOrder(script, image);
    assertThat(browser.alertOpen()).isFalse();
    assertThat(browser.driver().findElements(By.xpath("//script[contains(., 'alert(')]")))
        .isEmpty();
    assertThat(browser.driver().findElements(By.cssSelector("img[src='x']"))).isEmpty();
    browser.screenshot("11-xss-keys-as-text");

    browser.find(By.linkText(script)).click();
    browser.await(
        "the pacing of the key",
        ExpectedConditions.visibilityOfElementLocated(By.id("pacing-key")));
    assertThat(browser.find(By.id("pacing-key")).getText()).isEqualTo(script);
    assertThat(browser.alertOpen()).isFalse();

    browser.open(page("admin/task.xhtml?id=" + parked.getString("id")));
    assertThat(browser.find(By.id("payload")).getText()).contains(script);
    assertThat(browser.alertOpen()).isFalse();
    assertThat(browser.driver().findElements(By.xpath("//script[contains(., 'alert(')]")))
        .isEmpty();
    browser.screenshot("12-xss-payload-as-text");

    browser.open(page("admin/no-such-page.xhtml"));
    assertThat(browser.driver().getTitle()).contains("Not found");
    assertThat(browser.driver().getPageSource()).doesNotContain("Exception", "Payara");
    browser.open(page("admin/task.xhtml?id=" + url(script)));
    assertThat(browser.find(By.tagName("h1")).getText()).isEqualTo("No such task");
    assertThat(browser.pageText()).contains(script);
    assertThat(browser.alertOpen()).isFalse();
  }

  @Test
  void theKeysTableSortsByParkedCountAndPages() throws Exception {
    String prefix = "sort-" + UUID.randomUUID().toString().substring(0, 6) + "-";
    // keys a, b, c with 1, 3 and 2 parked tasks; 18 more keys with one task that ran at once
    int[] parked = {1, 3, 2};
    for (int k = 0; k < parked.length; k++) {
      for (int i = 0; i <= parked[k]; i++) {
        dispatch(HOT, prefix + (char) ('a' + k), prefix + k + "-" + i);
      }
    }
    for (int k = 0; k < 18; k++) {
      dispatch(HOT, prefix + "z" + k, prefix + "z" + k);
    }

    logInAsAdmin();
    browser.open(page("admin/rate-limits.xhtml?q=" + prefix));
    assertThat(browser.find(By.cssSelector(".pager")).getText()).contains("21 keys", "page 1 of 2");
    assertThat(keysShown()).hasSize(20).startsWith(prefix + "a", prefix + "b", prefix + "c");

    browser.find(By.id("sort-parked")).click();
    browser.await("sorted by parked count", ExpectedConditions.urlContains("sort=parked"));
    assertThat(keysShown()).startsWith(prefix + "b", prefix + "c", prefix + "a");
    assertThat(browser.find(By.id("sort-parked")).getText()).endsWith("▼");
    browser.screenshot("13-rate-limits-sorted-by-parked");

    browser.find(By.linkText("next →")).click();
    browser.await("the second page", ExpectedConditions.urlContains("page=1"));
    assertThat(keysShown()).hasSize(1).allMatch(k -> k.startsWith(prefix + "z"));
    assertThat(browser.find(By.cssSelector(".pager")).getText()).contains("page 2 of 2");
  }

  @Test
  void anAdminDefinesChangesAndRemovesASemaphoreOnTheThrottlersPage() {
    String id = "ui-sem-" + UUID.randomUUID().toString().substring(0, 6);
    logInAsAdmin();
    browser.open(page("admin/throttlers.xhtml"));
    assertThat(browser.pageText()).contains("it-newsletter"); // named by a test handler
    // a test handler's @Concurrency(limit = 2, key = "{tenant}"): listed, not removable
    WebElement concurrency =
        browser.find(By.cssSelector("tr.throttler-row[data-kind='concurrency']"));
    assertThat(concurrency.getText()).contains("ThrottledTasks$Export:{tenant}", "2");
    assertThat(concurrency.findElements(By.cssSelector("input[type=submit]"))).isEmpty();
    // the last hour's chart, the overview's component: tasks made to wait and dropped
    browser.await(
        "the chart",
        ExpectedConditions.presenceOfElementLocated(By.cssSelector("#last-hour canvas")));
    assertThat(browser.find(By.id("last-hour")).getText()).contains("made to wait", "dropped");
    assertThat(browser.find(By.id("last-hour-summary")).getText())
        .containsPattern(
            "\\d+ tasks made to wait and \\d+ dropped by the job throttlers; \\d+ calls made to"
                + " wait and \\d+ refused by the limiters \\(of \\d+ let in\\) on this instance");

    defineSemaphore(id, "2");
    browser.await(
        "saved", ExpectedConditions.textToBePresentInElementLocated(By.id("messages"), "saved"));
    assertThat(throttlerRow(id).getText()).contains("semaphore", id, "2");
    defineSemaphore(id, "3");
    browser.await(
        "the change logged",
        ExpectedConditions.textToBePresentInElementLocated(By.id("changes"), "maxCount=3"));
    assertThat(browser.find(By.id("changes")).getText())
        .contains(ADMIN + " semaphore " + id + " maxCount=2 maxCount=3");
    defineSemaphore(id, "0");
    browser.await(
        "refused, naming the value",
        ExpectedConditions.textToBePresentInElementLocated(
            By.id("messages"), "Not saved: maxCount must be between 1 and 1000000, was 0."));
    browser.screenshot("20-throttlers");

    throttlerRow(id).findElement(By.cssSelector("input[type=submit]")).click();
    browser.await(
        "removed",
        ExpectedConditions.textToBePresentInElementLocated(By.id("messages"), "removed"));
    assertThat(
            browser.driver().findElements(By.cssSelector("tr.throttler-row[data-id='" + id + "']")))
        .isEmpty();
  }

  @Test
  void aRateLimitedResourceShowsItsLimitRefusalsAndBusiestKeyOnTheThrottlersPage()
      throws Exception {
    for (int i = 0; i < 6; i++) {
      Http.send("GET", api("it-limited/ui-" + i), null, ADMIN, ADMIN_PASSWORD);
    }
    logInAsAdmin();
    browser.open(page("admin/throttlers.xhtml"));
    WebElement row =
        browser.await(
            "the limiter's row",
            driver -> {
              List<WebElement> rows =
                  driver.findElements(By.cssSelector("tr.limiter-row[data-name='it-http-quotes']"));
              return rows.isEmpty() ? null : rows.get(0);
            });
    assertThat(row.getText()).contains("SLIDING_LOG", "5 per 1 s", "local");
    assertThat(row.findElement(By.cssSelector(".granted")).getText()).isEqualTo("5");
    assertThat(row.findElement(By.cssSelector(".rejected")).getText()).isEqualTo("1");
    assertThat(row.findElement(By.cssSelector(".recent")).getText()).isEqualTo("1");
    // the last hour counts the limiter's calls too, and the chart can show it alone
    Matcher summary =
        Pattern.compile("(\\d+) calls made to wait and (\\d+) refused by the limiters \\(of (\\d+)")
            .matcher(browser.find(By.id("last-hour-summary")).getText());
    assertThat(summary.find()).as(browser.find(By.id("last-hour-summary")).getText()).isTrue();
    assertThat(Integer.parseInt(summary.group(2))).as("refused").isGreaterThanOrEqualTo(1);
    assertThat(Integer.parseInt(summary.group(3))).as("let in").isGreaterThanOrEqualTo(5);
    org.openqa.selenium.support.ui.Select series =
        new org.openqa.selenium.support.ui.Select(browser.find(By.id("chart-series")));
    assertThat(series.getOptions())
        .extracting(WebElement::getText)
        .contains("all queues, task types and limiters", "limiter it-http-quotes");
    series.selectByVisibleText("limiter it-http-quotes");
    assertThat(browser.find(By.id("last-hour")).getText()).contains("calls refused");
    browser.screenshot("21-limiters");
  }

  private void defineSemaphore(String id, String maxCount) {
    new org.openqa.selenium.support.ui.Select(browser.find(By.id("define:kind")))
        .selectByValue("semaphore");
    browser.find(By.id("define:id")).clear();
    browser.find(By.id("define:id")).sendKeys(id);
    browser.find(By.id("define:limit")).clear();
    browser.find(By.id("define:limit")).sendKeys(maxCount);
    WebElement save = browser.find(By.id("define:save"));
    save.click();
    // the save posts the whole page: look at the page only once the answer replaced it
    browser.awaitGone("the page after the save", save);
  }

  private WebElement throttlerRow(String id) {
    return browser.await(
        "the row of " + id,
        driver -> {
          List<WebElement> rows =
              driver.findElements(By.cssSelector("tr.throttler-row[data-id='" + id + "']"));
          return rows.isEmpty() ? null : rows.get(0);
        });
  }

  /**
   * The keys the table shows; read again if the page was still being replaced (a click's new page
   * can change the URL before its document has taken the old one's place).
   */
  private List<String> keysShown() {
    return browser.await(
        "the keys table",
        driver -> {
          try {
            return driver.findElements(By.cssSelector("#keys td.key")).stream()
                .map(WebElement::getText)
                .toList();
          } catch (org.openqa.selenium.StaleElementReferenceException e) {
            return null;
          }
        });
  }

  @Test
  void anUpstreamPushBackShowsOnItsKeysRow() throws Exception {
    String key = "push-" + UUID.randomUUID().toString().substring(0, 8);
    logInAsAdmin();
    browser.open(page("admin/rate-limits.xhtml?q=" + key));
    for (int i = 0; i < 3; i++) {
      dispatch(UPSTREAM, key, key + "-" + i); // the key's first call to start is pushed back 2 s
    }

    WebElement pushedBack =
        browser.await(
            "the key's push-back on its row",
            ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#keys tr.key-row .pushed-back")));
    assertThat(pushedBack.getText())
        .startsWith("Pushed back by its upstream until ")
        .endsWith(": 429 Too Many Requests");
    JsonObject rows =
        Http.json(Http.send("GET", api("rate-limits?key=" + key), null, ADMIN, ADMIN_PASSWORD));
    JsonObject pushBack = rows.getJsonArray("items").getJsonObject(0).getJsonObject("pushBack");
    assertThat(pushBack.getString("reason")).isEqualTo("429 Too Many Requests");
    assertThat(
            Duration.between(
                Instant.parse(pushBack.getString("at")),
                Instant.parse(pushBack.getString("until"))))
        .isEqualTo(Duration.ofSeconds(2));
  }

  private JsonObject dispatch(String type, String key, String id) throws Exception {
    String body = Json.createObjectBuilder().add("key", key).add("id", id).build().toString();
    HttpResponse<String> response =
        Http.send("POST", api("tasks/" + url(type)), body, ADMIN, ADMIN_PASSWORD);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
    return Http.json(response);
  }

  private String taskStatus(String id) throws Exception {
    HttpResponse<String> response =
        Http.send("GET", api("tasks/" + id), null, ADMIN, ADMIN_PASSWORD);
    assertThat(response.statusCode()).isEqualTo(200);
    return Http.json(response).getString("status");
  }

  /** The cancel form's POST with the browser's session and view state, and {@code token}. */
  private HttpResponse<String> forgedCancel(String viewState, String token) throws Exception {
    Cookie session = browser.driver().manage().getCookieNamed("JSESSIONID");
    assertThat(session).as("the browser's session cookie").isNotNull();
    String form =
        "actions=actions&"
            + url("actions:cancel")
            + "=Cancel&"
            + url("jakarta.faces.ViewState")
            + "="
            + url(viewState)
            + (token == null ? "" : "&_csrf=" + url(token));
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(browser.currentUrl()))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Cookie", "JSESSIONID=" + session.getValue())
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
  }

  private void logInAsAdmin() {
    browser.open(page("login.xhtml"));
    logIn(ADMIN, ADMIN_PASSWORD);
    browser.await("the overview", ExpectedConditions.urlContains("/admin/overview.xhtml"));
  }

  /** Marks the page's window: a full reload would drop the mark. */
  private void markPage() {
    browser.driver().executeScript("window.taskgateMark = 'still here';");
  }

  private void assertPageNotReloaded() {
    assertThat(browser.driver().executeScript("return window.taskgateMark;"))
        .as("the page was updated in place, not reloaded")
        .isEqualTo("still here");
  }

  private static String url(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private void logIn(String user, String password) {
    browser.find(By.id("login:username")).clear();
    browser.find(By.id("login:username")).sendKeys(user);
    browser.find(By.id("login:password")).sendKeys(password);
    browser.find(By.id("login:submit")).click();
  }

  private String page(String path) {
    return baseUrl.toString() + path;
  }

  private URI api(String path) {
    return URI.create(baseUrl.toString()).resolve("api/" + path);
  }
}
