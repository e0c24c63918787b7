package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The example application as docs/your-application.md builds it for Payara Server:
 * example/shop-ear, the shop's WAR at {@code /shop} beside Taskgate's engine (an EJB module) and
 * Taskgate's web module at {@code /taskgate}, on a Payara Server domain of its own (portbase {@code
 * taskgate.shop.ports}, its own embedded H2). The environment sets the clerk's password and
 * Taskgate's admin password, turns the viewer and the examples off.
 */
class ExampleShopEarIT {
  private static final String DOMAIN = "taskgate-shop";
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final String CLERK_PASSWORD = "clerk-" + UUID.randomUUID();
  private static final String ADMIN_PASSWORD = "admin-" + UUID.randomUUID();

  /** What that section sets in the environment of the domain. */
  private static final Map<String, String> ENVIRONMENT =
      Map.of(
          "SHOP_CLERK_PASSWORD",
          CLERK_PASSWORD,
          "TASKGATE_SECURITY_USER_ADMIN_PASSWORD",
          ADMIN_PASSWORD,
          "TASKGATE_SECURITY_USER_VIEWER_PASSWORD",
          "",
          "TASKGATE_EXAMPLES_ENABLED",
          "false");

  private static Path domainDir;
  private static String ports;

  @BeforeAll
  static void startADomainAndDeployTheShop() throws Exception {
    ports = ItConfig.required("taskgate.shop.ports");
    domainDir = Path.of(ItConfig.required("taskgate.shop.domaindir"));
    if (Files.isDirectory(domainDir.resolve(DOMAIN))) { // left by a build that was killed
      PayaraServer.asadmin(Map.of(), "stop-domain", "--domaindir", domainDir.toString(), DOMAIN);
      PayaraServer.asadmin(Map.of(), "delete-domain", "--domaindir", domainDir.toString(), DOMAIN);
    }
    PayaraServer.createDomain(domainDir, DOMAIN, ports);
    PayaraServer.require(
        PayaraServer.asadmin(
            ENVIRONMENT,
            "start-domain",
            "--prebootcommandfile",
            Path.of(ItConfig.required("taskgate.serverConfig"), "no-data-grid.asadmin").toString(),
            "--domaindir",
            domainDir.toString(),
            DOMAIN));
    PayaraServer.require(
        PayaraServer.asadmin(
            Map.of(), "--port", ports + "48", "deploy", ItConfig.required("taskgate.shopEar")));
    // Taskgate's API first: had it filled the application's IdentityStoreHandler with its own
    // users, the shop's clerk would be refused from now on.
    assertThat(
            Http.send("GET", url("taskgate/api/tasks"), null, "admin", ADMIN_PASSWORD).statusCode())
        .isEqualTo(200);
  }

  @AfterAll
  static void stopTheDomain() throws Exception {
    if (domainDir != null) {
      PayaraServer.asadmin(Map.of(), "stop-domain", "--domaindir", domainDir.toString(), DOMAIN);
    }
  }

  private static URI url(String path) {
    return URI.create("http://localhost:" + ports + "80/" + path);
  }

  @Test
  void theShopsHandlerInItsWarRunsOnTheEngineAtTheEarRoot() throws Exception {
    JsonObject invoice = invoiceOf(order("acme"));

    assertThat(invoice.getString("customer")).isEqualTo("acme");
    assertThat(invoice.getBoolean("shopStarted")).isTrue();
  }

  @Test
  void taskgatesApiBesideTheShopShowsTheShopsTask() throws Exception {
    JsonObject order = order("globex");

    JsonObject task =
        Http.awaitJson(
            url("taskgate/api/tasks/" + order.getString("taskId")),
            "admin",
            ADMIN_PASSWORD,
            body -> body.getString("status").equals("COMPLETED"),
            TIMEOUT);
    assertThat(task.getString("type")).isEqualTo("com.example.shop.SendInvoice");
    assertThat(task.getString("payload")).contains("\"customer\":\"globex\"");
  }

  @Test
  void eachWarAuthenticatesItsOwnUsers() throws Exception {
    URI tasks = url("taskgate/api/tasks");
    URI orders = url("shop/api/orders");

    assertThat(Http.send("GET", tasks, null, "admin", ADMIN_PASSWORD).statusCode()).isEqualTo(200);
    HttpResponse<String> clerkAtTaskgate = Http.send("GET", tasks, null, "clerk", CLERK_PASSWORD);
    assertThat(clerkAtTaskgate.statusCode()).isEqualTo(401);
    assertThat(clerkAtTaskgate.headers().firstValue("WWW-Authenticate"))
        .hasValue("Basic realm=\"taskgate\"");
    HttpResponse<String> adminAtTheShop =
        Http.send("POST", orders, "{\"customer\":\"a\"}", "admin", ADMIN_PASSWORD);
    assertThat(adminAtTheShop.statusCode()).isEqualTo(401);
    assertThat(adminAtTheShop.headers().firstValue("WWW-Authenticate"))
        .hasValue("Basic realm=\"shop\"");
  }

  @Test
  void theDemoUsersAndTheExamplesAreOff() throws Exception {
    URI tasks = url("taskgate/api/tasks");

    assertThat(Http.send("GET", tasks, null, "admin", "taskgate").statusCode()).isEqualTo(401);
    assertThat(Http.send("GET", tasks, null, "viewer", "taskgate-viewer").statusCode())
        .isEqualTo(401);
    assertThat(Http.send("GET", tasks, null, "viewer", "").statusCode()).isEqualTo(401);
    HttpResponse<String> example =
        Http.send(
            "POST",
            url("taskgate/api/tasks/SyncTenantData"),
            "{\"tenantId\":\"t1\"}",
            "admin",
            ADMIN_PASSWORD);
    assertThat(example.statusCode()).as(example.body()).isEqualTo(400);
    assertThat(Http.json(example).getJsonArray("knownTypes").getValuesAs(JsonString::getString))
        .containsExactly("com.example.shop.SendInvoice");
  }

  @Test
  void theShopsRateLimitedQuotesAnswer429FromTheEngineAtTheEarRoot() throws Exception {
    ExampleShopIT.assertQuotesAreLimited(url("shop/api/quotes/"), "clerk", CLERK_PASSWORD);
  }

  @Test
  void theShopsApiAnswersTheShopsOwnUsersWithThePasswordFromTheEnvironment() throws Exception {
    URI orders = url("shop/api/orders");

    assertThat(Http.send("POST", orders, "{\"customer\":\"a\"}", null, null).statusCode())
        .isEqualTo(401);
    assertThat(Http.send("POST", orders, "{\"customer\":\"a\"}", "clerk", "clerk").statusCode())
        .isEqualTo(401);
    assertThat(
            Http.send("POST", orders, "{\"customer\":\" \"}", "clerk", CLERK_PASSWORD).statusCode())
        .isEqualTo(400);
  }

  @Test
  void theWorkersWereStartedByTheShopsWarFirstNotByTaskgatesNorTheFallback() throws Exception {
    // once a task has run, the workers have started, and the fallback would have logged it
    invoiceOf(order("b"));
    Path log = domainDir.resolve(DOMAIN).resolve("logs/server.log");

    assertThat(Files.readString(log))
        .contains(
            "Taskgate set the H2 database's WRITE_DELAY") // the right log, with Taskgate in it
        .contains("Taskgate's workers start: the web module /shop has initialised")
        .doesNotContain("Taskgate started its workers");
  }

  /** The clerk orders an invoice for {@code customer}: the shop's answer (orderId, taskId). */
  private static JsonObject order(String customer) throws Exception {
    HttpResponse<String> paid =
        Http.send(
            "POST",
            url("shop/api/orders"),
            "{\"customer\":\"" + customer + "\"}",
            "clerk",
            CLERK_PASSWORD);
    assertThat(paid.statusCode()).as(paid.body()).isEqualTo(202);
    return Http.json(paid);
  }

  /** The invoice of {@code order}, once the shop's handler has sent it. */
  private static JsonObject invoiceOf(JsonObject order) throws Exception {
    return Http.awaitJson(
        url("shop/api/orders/" + order.getString("orderId") + "/invoice"),
        "clerk",
        CLERK_PASSWORD,
        body -> true,
        TIMEOUT);
  }
}
