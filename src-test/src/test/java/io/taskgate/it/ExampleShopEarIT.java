package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The example application as the README's "Use Taskgate in your own application" builds it for
 * Payara Server: example/shop-ear, the shop's WAR at {@code /shop} beside Taskgate's engine (an EJB
 * module), on a Payara Server domain of its own (portbase {@code taskgate.shop.ports}, its own
 * embedded H2), the clerk's password set in the environment.
 */
class ExampleShopEarIT {
  private static final String DOMAIN = "taskgate-shop";
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final String CLERK_PASSWORD = "clerk-" + UUID.randomUUID();

  private static Path domainDir;
  private static String ports;

  @BeforeAll
  static void startADomainAndDeployTheShop() throws Exception {
    ports = ItConfig.required("taskgate.shop.ports");
    domainDir = Path.of(ItConfig.required("taskgate.shop.domaindir"));
    if (Files.isDirectory(domainDir.resolve(DOMAIN))) { // left by a build that was killed
      asadmin(Map.of(), "stop-domain", "--domaindir", domainDir.toString(), DOMAIN);
      asadmin(Map.of(), "delete-domain", "--domaindir", domainDir.toString(), DOMAIN);
    }
    require(
        asadmin(
            Map.of(),
            "create-domain",
            "--nopassword",
            "--portbase",
            ports + "00",
            "--domaindir",
            domainDir.toString(),
            DOMAIN));
    require(
        asadmin(
            Map.of("SHOP_CLERK_PASSWORD", CLERK_PASSWORD),
            "start-domain",
            "--prebootcommandfile",
            Path.of(ItConfig.required("taskgate.serverConfig"), "no-data-grid.asadmin").toString(),
            "--domaindir",
            domainDir.toString(),
            DOMAIN));
    require(
        asadmin(Map.of(), "--port", ports + "48", "deploy", ItConfig.required("taskgate.shopEar")));
  }

  @AfterAll
  static void stopTheDomain() throws Exception {
    if (domainDir != null) {
      asadmin(Map.of(), "stop-domain", "--domaindir", domainDir.toString(), DOMAIN);
    }
  }

  private static URI url(String path) {
    return URI.create("http://localhost:" + ports + "80/" + path);
  }

  @Test
  void theShopsHandlerInItsWarRunsOnTheEngineAtTheEarRoot() throws Exception {
    HttpResponse<String> paid =
        Http.send(
            "POST", url("shop/api/orders"), "{\"customer\":\"acme\"}", "clerk", CLERK_PASSWORD);

    assertThat(paid.statusCode()).as(paid.body()).isEqualTo(202);
    JsonObject invoice =
        Http.awaitJson(
            url("shop/api/orders/" + Http.json(paid).getString("orderId") + "/invoice"),
            "clerk",
            CLERK_PASSWORD,
            body -> true,
            TIMEOUT);
    assertThat(invoice.getString("customer")).isEqualTo("acme");
    assertThat(invoice.getBoolean("shopStarted")).isTrue();
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
  void theWorkersWereStartedByTheShopsWarNotByTheFallback() throws Exception {
    // once a task has run, the workers have started, and the fallback would have logged it
    HttpResponse<String> paid =
        Http.send("POST", url("shop/api/orders"), "{\"customer\":\"b\"}", "clerk", CLERK_PASSWORD);
    Http.awaitJson(
        url("shop/api/orders/" + Http.json(paid).getString("orderId") + "/invoice"),
        "clerk",
        CLERK_PASSWORD,
        body -> true,
        TIMEOUT);
    Path log = domainDir.resolve(DOMAIN).resolve("logs/server.log");

    assertThat(Files.readString(log))
        .contains(
            "Taskgate set the H2 database's WRITE_DELAY") // the right log, with Taskgate in it
        .doesNotContain("Taskgate started its workers");
  }

  /** Runs asadmin with the JDK running the tests; answers its exit code. */
  private static int asadmin(Map<String, String> environment, String... arguments)
      throws IOException, InterruptedException {
    Path cli = Path.of(ItConfig.required("payara.home"), "glassfish/lib/client/appserver-cli.jar");
    if (!Files.isRegularFile(cli)) {
      throw new IllegalStateException(
          cli
              + " is missing: Payara Server is unpacked in pre-integration-test unless"
              + " -Dtaskgate.server.skip=true");
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-jar");
    command.add(cli.toString());
    command.addAll(List.of(arguments));
    ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
    builder.environment().putAll(environment);
    Process process = builder.start();
    if (!process.waitFor(5, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new IllegalStateException("asadmin " + String.join(" ", arguments) + " hung");
    }
    return process.exitValue();
  }

  private static void require(int exitCode) {
    assertThat(exitCode).as("asadmin exit code (its output is above)").isZero();
  }
}
