package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.JsonObject;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The EAR as users deploy it, on Payara Server 6: src-test/pom.xml creates a domain on non-default
 * ports, starts it and deploys ear/target/taskgate.ear in pre-integration-test, and stops it in
 * post-integration-test.
 */
class EarSmokeIT {

  /** Deploy has returned when the tests start; this only covers a slow first request. */
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

  /** The default API user that the WAR ships with (docs/security.md). */
  private static final String ADMIN = "admin";

  private static final String ADMIN_PASSWORD = "taskgate";

  /** The default viewer, as server-config/default-users.properties defines it. */
  private static final String VIEWER = "viewer";

  private static final String VIEWER_PASSWORD = "taskgate-viewer";

  @Test
  void apiInfoAnswersUpOnPayaraServer() throws Exception {
    URI info = URI.create(ItConfig.required("taskgate.server.url")).resolve("api/info");

    JsonObject body =
        Http.json(
            Http.awaitOk(
                info,
                STARTUP_TIMEOUT,
                "Did Payara Server start and the EAR deploy? See the Maven log of"
                    + " pre-integration-test and "
                    + ItConfig.required("taskgate.server.log")));

    assertThat(body.getString("name")).isEqualTo("taskgate");
    assertThat(body.getString("status")).isEqualTo("UP");
    assertThat(body.getString("version")).isEqualTo(ItConfig.required("taskgate.version"));
    assertThat(body.getString("startedAt")).isNotBlank();
  }

  /**
   * The example handler lives in the WAR, the engine in the EJB jar at the EAR root: a task
   * dispatched over REST with the default admin user completing shows that the engine finds and
   * runs handlers of the WAR.
   */
  @Test
  void anExampleTaskDispatchedOverRestCompletesOnPayaraServer() throws Exception {
    URI api = URI.create(ItConfig.required("taskgate.server.url")).resolve("api/");
    Http.awaitOk(
        api.resolve("info"), STARTUP_TIMEOUT, "See " + ItConfig.required("taskgate.server.log"));
    String body = "{\"tenantId\":\"" + UUID.randomUUID() + "\"}";

    assertThat(
            Http.send("POST", api.resolve("tasks/SyncTenantData"), body, null, null).statusCode())
        .isEqualTo(401);
    HttpResponse<String> posted =
        Http.send("POST", api.resolve("tasks/SyncTenantData"), body, ADMIN, ADMIN_PASSWORD);

    assertThat(posted.statusCode()).as(posted.body()).isEqualTo(202);
    URI task = URI.create(posted.headers().firstValue("Location").orElseThrow());
    JsonObject done =
        Http.awaitJson(
            task,
            ADMIN,
            ADMIN_PASSWORD,
            t ->
                !t.getString("status").equals("QUEUED")
                    && !t.getString("status").equals("IN_PROGRESS"),
            Duration.ofSeconds(30));
    assertThat(done.getString("status")).as(done.toString()).isEqualTo("COMPLETED");
    assertThat(done.getString("type")).isEqualTo("io.taskgate.web.examples.SyncTenantData");

    // the default viewer reads the throttled view (the WAR's resources on the EJB jar's facade),
    // and may not dispatch
    HttpResponse<String> rows =
        Http.send(
            "GET", api.resolve("rate-limits?type=SyncTenantData"), null, VIEWER, VIEWER_PASSWORD);
    assertThat(rows.statusCode()).as(rows.body()).isEqualTo(200);
    assertThat(Http.json(rows).getJsonObject("totals").getInt("maxTrackedKeys")).isEqualTo(100_000);
    assertThat(
            Http.send("GET", api.resolve("overview"), null, VIEWER, VIEWER_PASSWORD).statusCode())
        .isEqualTo(200);
    assertThat(
            Http.send("POST", api.resolve("tasks/SyncTenantData"), body, VIEWER, VIEWER_PASSWORD)
                .statusCode())
        .isEqualTo(403);
  }

  /**
   * The admin pages in the EAR: anonymous visits go to the login page, and the login form (with its
   * CSRF token and Faces view state) lets the admin in, on Payara Server as on Micro.
   */
  @Test
  void theAdminPagesAskForLoginAndLetTheAdminInOnPayaraServer() throws Exception {
    URI root = URI.create(ItConfig.required("taskgate.server.url"));
    Http.awaitOk(
        root.resolve("api/info"),
        STARTUP_TIMEOUT,
        "See " + ItConfig.required("taskgate.server.log"));
    HttpClient browser =
        HttpClient.newBuilder()
            .cookieHandler(new CookieManager())
            .followRedirects(HttpClient.Redirect.NORMAL)
            .build();

    HttpResponse<String> login =
        browser.send(
            HttpRequest.newBuilder(root.resolve("admin/overview.xhtml")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(login.uri().getPath()).endsWith("/login.xhtml");
    assertThat(login.body()).contains("name=\"login:username\"");

    String form =
        "login=login&login%3Ausername=admin&login%3Apassword="
            + ADMIN_PASSWORD
            + "&login%3Asubmit=Log+in&_csrf="
            + field(login.body(), "_csrf")
            + "&jakarta.faces.ViewState="
            + field(login.body(), "jakarta.faces.ViewState");
    HttpResponse<String> overview =
        browser.send(
            HttpRequest.newBuilder(login.uri())
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(overview.statusCode()).isEqualTo(200);
    assertThat(overview.uri().getPath()).endsWith("/admin/overview.xhtml");
    assertThat(overview.body()).contains("<h1>Overview</h1>", "Log out");
  }

  /**
   * No data grid, so this server joins no other Payara's grid on the machine or network: its
   * pre-boot commands (server-config/no-data-grid.asadmin, as for the run command) turn Payara's
   * Hazelcast off, and it never started.
   */
  @Test
  void payaraServerRunsWithoutADataGrid() throws Exception {
    Http.awaitOk(
        URI.create(ItConfig.required("taskgate.server.url")).resolve("api/info"),
        STARTUP_TIMEOUT,
        "See " + ItConfig.required("taskgate.server.log"));
    HttpResponse<String> grid =
        Http.get(
            URI.create(ItConfig.required("taskgate.server.admin.url"))
                .resolve(
                    "management/domain/configs/config/server-config"
                        + "/hazelcast-config-specific-configuration"));
    assertThat(grid.statusCode()).as(grid.body()).isEqualTo(200);
    assertThat(
            Http.json(grid)
                .getJsonObject("extraProperties")
                .getJsonObject("entity")
                .getString("enabled"))
        .as(grid.body())
        .isEqualTo("false");

    String log = Files.readString(Path.of(ItConfig.required("taskgate.server.log")));
    assertThat(log)
        .as("see " + ItConfig.required("taskgate.server.log"))
        .contains("taskgate was successfully deployed")
        .doesNotContain("Hazelcast Instance Bound")
        .doesNotContain("Data Grid Status")
        .doesNotContain("DG Size");
  }

  /** The value of the hidden input named {@code name}, URL-encoded for a form body. */
  private static String field(String html, String name) {
    Matcher input =
        Pattern.compile("name=\"" + Pattern.quote(name) + "\"[^>]*value=\"([^\"]*)\"")
            .matcher(html);
    assertThat(input.find()).as("hidden input %s in %s", name, html).isTrue();
    return URLEncoder.encode(input.group(1), StandardCharsets.UTF_8);
  }
}
