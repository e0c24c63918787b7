package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.it.shop.StartupProbe;
import jakarta.json.JsonObject;
import java.io.File;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The example application (example/shop-web) as docs/your-application.md builds it for Payara
 * Micro: the shop's own WAR with Taskgate's engine in {@code WEB-INF/lib}, its handlers, its JAX-RS
 * application under its own path and its own users. Deployed as built, plus {@link StartupProbe} (a
 * start-up that dispatches a task and takes a second more), and called over HTTP like a client.
 */
@ExtendWith(ArquillianExtension.class)
class ExampleShopIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);
  private static final String CLERK = "clerk";
  private static final String CLERK_PASSWORD = "clerk"; // the example's public default

  @ArquillianResource URL baseUrl;

  @Deployment(testable = false)
  static WebArchive shopWar() {
    return ShrinkWrap.createFromZipFile(
            WebArchive.class, new File(ItConfig.required("taskgate.shopWar")))
        .addPackage(StartupProbe.class.getPackage());
  }

  private URI api(String path) {
    return URI.create(baseUrl.toString()).resolve("api/" + path);
  }

  @Test
  void anOrderPaidThroughTheShopsOwnApiHasItsInvoiceSentByTheShopsHandler() throws Exception {
    HttpResponse<String> paid =
        Http.send("POST", api("orders"), "{\"customer\":\"acme\"}", CLERK, CLERK_PASSWORD);

    assertThat(paid.statusCode()).as(paid.body()).isEqualTo(202);
    String orderId = Http.json(paid).getString("orderId");
    JsonObject invoice =
        Http.awaitJson(
            api("orders/" + orderId + "/invoice"), CLERK, CLERK_PASSWORD, body -> true, TIMEOUT);
    assertThat(invoice.getString("customer")).isEqualTo("acme");
    assertThat(invoice.getInt("attempt")).isEqualTo(1);
    assertThat(invoice.getBoolean("shopStarted")).isTrue();
  }

  @Test
  void theFourthQuoteOfAProductInAMinuteAnswers429() throws Exception {
    assertQuotesAreLimited(api("quotes/"), CLERK, CLERK_PASSWORD);
  }

  /**
   * The shop's {@code @RateLimited} quotes, three a minute per product: three answer 200 with the
   * RateLimit headers, the fourth 429 with {@code Retry-After} and a problem naming the limiter and
   * the product; another product is not affected.
   */
  static void assertQuotesAreLimited(URI quotes, String user, String password) throws Exception {
    String sku = "sku-" + UUID.randomUUID();
    for (int i = 1; i <= 3; i++) {
      HttpResponse<String> quote = Http.send("GET", quotes.resolve(sku), null, user, password);
      assertThat(quote.statusCode()).as("quote %d: %s", i, quote.body()).isEqualTo(200);
      assertThat(quote.headers().firstValue("RateLimit-Policy"))
          .hasValue("\"shop-quotes\";q=3;w=60");
      String left = "\"shop-quotes\";r=" + (3 - i) + ";";
      assertThat(quote.headers().firstValue("RateLimit"))
          .hasValueSatisfying(v -> assertThat(v).startsWith(left));
    }
    HttpResponse<String> refused = Http.send("GET", quotes.resolve(sku), null, user, password);
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(429);
    assertThat(refused.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
    assertThat(refused.headers().firstValue("Retry-After"))
        .hasValueSatisfying(v -> assertThat(Integer.parseInt(v)).isBetween(1, 60));
    JsonObject problem = Http.json(refused);
    assertThat(problem.getString("limiter")).isEqualTo("shop-quotes");
    assertThat(problem.getString("key")).isEqualTo(sku);
    assertThat(Http.send("GET", quotes.resolve(sku + "-other"), null, user, password).statusCode())
        .as("another product")
        .isEqualTo(200);
  }

  @Test
  void anInvalidTaskIsRefusedAtDispatchNamingTheField() throws Exception {
    HttpResponse<String> refused =
        Http.send("POST", api("orders"), "{\"customer\":\" \"}", CLERK, CLERK_PASSWORD);

    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(Http.json(refused).getString("error"))
        .contains("com.example.shop.SendInvoice")
        .contains("customer must not be blank");
  }

  @Test
  void theShopsApiAnswersOnlyTheShopsOwnUsers() throws Exception {
    HttpResponse<String> anonymous = Http.send("POST", api("orders"), "{}", null, null);
    HttpResponse<String> wrong =
        Http.send("POST", api("orders"), "{\"customer\":\"acme\"}", CLERK, "wrong");
    HttpResponse<String> taskgateDefault =
        Http.send("POST", api("orders"), "{\"customer\":\"acme\"}", "admin", "taskgate");

    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValue("Basic realm=\"shop\"");
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(taskgateDefault.statusCode()).isEqualTo(401);
  }

  @Test
  void handlersStartOnlyAfterTheApplicationsOwnStartUpHasFinished() throws Exception {
    JsonObject report =
        Http.awaitJson(
            api("startup-probe"), CLERK, CLERK_PASSWORD, body -> body.getBoolean("ran"), TIMEOUT);

    assertThat(report.getBoolean("ranAfterStart")).as(report.toString()).isTrue();
    // the WAR's own listener said so, not the fallback timer
    assertThat(report.getString("workersStartedBy")).isEqualTo("web module /shop");
  }
}
