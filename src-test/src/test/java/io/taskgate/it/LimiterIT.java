package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.taskgate.api.LimiterAlgorithm;
import io.taskgate.api.NamedRateLimiter;
import io.taskgate.api.RateLimitExceededException;
import io.taskgate.engine.admin.LimiterAdmin;
import io.taskgate.it.engine.LimitedCalls;
import io.taskgate.it.engine.LimitedCalls.Configured;
import io.taskgate.it.engine.LimitedCalls.Quotes;
import io.taskgate.it.engine.LimitedCalls.Waiting;
import io.taskgate.it.engine.TestConfigSource;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code @RateLimited} in the container, on real time: a CDI bean's method and a JAX-RS resource
 * method, each 5 calls in any second per user.
 */
@ExtendWith(ArquillianExtension.class)
class LimiterIT {
  private static final String ADMIN = "admin";
  private static final String PASSWORD = "taskgate";

  @ArquillianResource URL baseUrl;

  @Inject Quotes quotes;
  @Inject Waiting waiting;
  @Inject Configured configured;
  @Inject LimiterAdmin limiters;

  @Deployment
  static WebArchive taskgateWar() {
    return EngineIT.taskgateWar();
  }

  @Test
  void theSixthCallOfAUserWithinASecondIsRefusedAndAnotherUserIsNot() {
    for (int i = 0; i < 5; i++) {
      assertThat(quotes.quote("ann", "sku-" + i)).isEqualTo("quote for ann: sku-" + i);
    }
    RateLimitExceededException sixth =
        catchThrowableOfType(() -> quotes.quote("ann", "sku-5"), RateLimitExceededException.class);
    assertThat(sixth).as("the sixth call of ann").isNotNull();
    assertThat(sixth.limiter()).isEqualTo("it-quotes");
    assertThat(sixth.key()).isEqualTo("ann");
    assertThat(sixth.retryAfter())
        .hasValueSatisfying(
            d -> assertThat(d).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(1)));

    assertThat(quotes.quote("bob", "sku-1")).isEqualTo("quote for bob: sku-1");
  }

  @Test
  void aCallTakesThePermitsOfItsCostParameterAndOneThatCouldNeverPassIsRefused() {
    assertThat(quotes.mail("acme", 6)).isEqualTo("6 messages for acme");
    assertThat(quotes.mail("acme", 4)).isEqualTo("4 messages for acme");
    assertThat(catchThrowableOfType(() -> quotes.mail("acme", 1), RateLimitExceededException.class))
        .as("ten messages sent")
        .isNotNull();
    assertThat(quotes.mail("globex", 10)).isEqualTo("10 messages for globex");
    assertThatThrownBy(() -> quotes.mail("initech", 11))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("@RateLimitCost parameter messages must be between 1 and 10")
        .hasMessageContaining("was 11");
    assertThat(limiters.find("it-mailings").orElseThrow().granted()).isEqualTo(3);
  }

  @Test
  void chainedLimitsPerUserAndForEverybodyTakeAllOrNothing() {
    quotes.both("ann");
    quotes.both("ann");
    assertThat(catchThrowableOfType(() -> quotes.both("ann"), RateLimitExceededException.class))
        .extracting(RateLimitExceededException::limiter)
        .isEqualTo("it-per-user");
    assertThat(quotes.both("bob")).isEqualTo("both for bob");
    assertThat(catchThrowableOfType(() -> quotes.both("cy"), RateLimitExceededException.class))
        .extracting(RateLimitExceededException::limiter)
        .isEqualTo("it-everybody");
    assertThat(limiters.find("it-everybody").orElseThrow().granted()).isEqualTo(3);
  }

  @Test
  @RunAsClient
  void overHttpTheSixthCallAnswers429WithRetryAfterAndAProblemAndTheHeaders() throws Exception {
    for (int i = 0; i < 5; i++) {
      HttpResponse<String> ok = Http.send("GET", api("it-limited/a" + i), null, ADMIN, PASSWORD);
      assertThat(ok.statusCode()).isEqualTo(200);
      assertThat(Http.json(ok).getString("quote")).isEqualTo("a" + i);
      assertThat(ok.headers().firstValue("RateLimit-Policy"))
          .contains("\"it-http-quotes\";q=5;w=1");
      String remaining = "\"it-http-quotes\";r=" + (4 - i) + ";t=";
      assertThat(ok.headers().firstValue("RateLimit"))
          .hasValueSatisfying(v -> assertThat(v).startsWith(remaining));
    }

    HttpResponse<String> sixth = Http.send("GET", api("it-limited/a5"), null, ADMIN, PASSWORD);

    assertThat(sixth.statusCode()).isEqualTo(429);
    assertThat(sixth.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
    assertThat(sixth.headers().firstValue("Retry-After")).contains("1");
    assertThat(sixth.headers().firstValue("RateLimit"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("\"it-http-quotes\";r=0;t="));
    JsonObject problem = Http.json(sixth);
    assertThat(problem.getInt("status")).isEqualTo(429);
    assertThat(problem.getString("type")).isEqualTo("urn:taskgate:problem:rate-limit-exceeded");
    assertThat(problem.getString("limiter")).isEqualTo("it-http-quotes");
    assertThat(problem.getString("key")).isEqualTo(ADMIN);
    assertThat(problem.getInt("retryAfterSeconds")).isEqualTo(1);

    HttpResponse<String> reader =
        Http.send(
            "GET",
            api("it-limited/b0"),
            null,
            TestConfigSource.VIEWER,
            TestConfigSource.VIEWER_PASSWORD);
    assertThat(reader.statusCode()).as("another user").isEqualTo(200);
  }

  @Test
  void aCallOverTheLimitWaitsForItsPermitWithinMaxWait() throws Exception {
    waiting.call("first");
    long start = System.nanoTime();
    String second = waiting.call("second");
    long waitedMillis = (System.nanoTime() - start) / 1_000_000;
    assertThat(second).startsWith("second on ");
    assertThat(waitedMillis).as("waited for the next slot, 500 ms later").isBetween(300L, 2_900L);
    assertThat(limiters.find("it-waiting").orElseThrow().waited()).isEqualTo(1);
    String metrics =
        Await.until(
                () -> Http.getText(baseUrl.toURI().resolve("/metrics?scope=application")),
                r -> r.statusCode() == 200 && r.body().contains("taskgate_limiter_waited"),
                Duration.ofSeconds(30),
                r -> "no limiter metrics: " + r.body())
            .body();
    assertThat(metrics)
        .containsPattern("taskgate_limiter_granted\\{[^}]*limiter=\"it-waiting\"[^}]*\\} 2")
        .containsPattern("taskgate_limiter_waited\\{[^}]*limiter=\"it-waiting\"[^}]*\\} 1")
        .containsPattern(
            "taskgate_limiter_wait_time_seconds\\{[^}]*limiter=\"it-waiting\"[^}]*\\} (0\\.[3-9]|[12]\\.)");
  }

  @Test
  void anAsyncCallOverTheLimitReturnsAtOnceAndRunsOnAnotherThreadWhenItsPermitComes()
      throws Exception {
    waiting.callAsync("first").toCompletableFuture().join();
    String caller = Thread.currentThread().getName();
    long start = System.nanoTime();
    CompletableFuture<String> second = waiting.callAsync("second").toCompletableFuture();
    long returnedMillis = (System.nanoTime() - start) / 1_000_000;
    assertThat(second).as("waiting for its permit").isNotDone();
    assertThat(returnedMillis).as("returned without waiting").isLessThan(200L);
    String ran = second.get(3, TimeUnit.SECONDS);
    long doneMillis = (System.nanoTime() - start) / 1_000_000;
    assertThat(ran).startsWith("second on ").doesNotEndWith(" on " + caller);
    assertThat(doneMillis).isBetween(300L, 2_900L);
  }

  @Test
  @RunAsClient
  void aConfigDefinedLimiterChangedAtRunTimeAppliesAtOnceAndCanBeReset() throws Exception {
    URI configured = api("limiters/" + LimitedCalls.CONFIGURED);
    assertThat(Http.send("POST", api("it-limited/configured"), null, ADMIN, PASSWORD).statusCode())
        .isEqualTo(200);
    assertThat(Http.send("POST", api("it-limited/configured"), null, ADMIN, PASSWORD).statusCode())
        .isEqualTo(200);
    assertThat(Http.send("POST", api("it-limited/configured"), null, ADMIN, PASSWORD).statusCode())
        .as("the third call of two per minute")
        .isEqualTo(429);

    HttpResponse<String> viewerPut =
        Http.send(
            "PUT",
            configured,
            "{\"permits\":5,\"period\":\"PT1M\"}",
            TestConfigSource.VIEWER,
            TestConfigSource.VIEWER_PASSWORD);
    assertThat(viewerPut.statusCode()).isEqualTo(403);
    HttpResponse<String> bad =
        Http.send("PUT", configured, "{\"permits\":0,\"period\":\"PT1M\"}", ADMIN, PASSWORD);
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(Http.json(bad).getString("parameter")).isEqualTo("permits");

    HttpResponse<String> put =
        Http.send("PUT", configured, "{\"permits\":5,\"period\":\"PT1M\"}", ADMIN, PASSWORD);
    assertThat(put.statusCode()).isEqualTo(200);
    assertThat(Http.json(put).getBoolean("changed")).isTrue();
    for (int i = 0; i < 5; i++) {
      assertThat(
              Http.send("POST", api("it-limited/configured"), null, ADMIN, PASSWORD).statusCode())
          .as("call %d under the new limit", i + 1)
          .isEqualTo(200);
    }
    assertThat(Http.send("POST", api("it-limited/configured"), null, ADMIN, PASSWORD).statusCode())
        .isEqualTo(429);

    JsonObject view = Http.json(Http.send("GET", configured, null, ADMIN, PASSWORD));
    assertThat(view.getString("algorithm")).isEqualTo("FIXED_WINDOW");
    assertThat(view.getInt("permits")).isEqualTo(5);
    assertThat(view.getInt("granted")).isEqualTo(7);
    assertThat(view.getInt("rejected")).isEqualTo(2);
    assertThat(view.getJsonNumber("rejectedLastMinute").longValue())
        .as("the two refusals of the last minute")
        .isGreaterThanOrEqualTo(2);
    assertThat(view.getString("scope")).isEqualTo("local");
    JsonObject busiest = view.getJsonArray("busiestKeys").getJsonObject(0);
    assertThat(busiest.getString("key")).as("the limiter's one budget").isEmpty();
    assertThat(busiest.getInt("used")).isEqualTo(5);
    assertThat(busiest.getInt("limit")).isEqualTo(5);

    assertThat(Http.send("DELETE", configured, null, ADMIN, PASSWORD).statusCode()).isEqualTo(204);
    JsonObject reset = Http.json(Http.send("GET", configured, null, ADMIN, PASSWORD));
    assertThat(reset.getInt("permits")).isEqualTo(2);
    assertThat(reset.getBoolean("changed")).isFalse();
    assertThat(Http.send("GET", api("throttlers/changes"), null, ADMIN, PASSWORD).body())
        .as("the change and the reset are audited")
        .contains("limiter:" + LimitedCalls.CONFIGURED);
  }

  @Test
  void theInjectedLimiterSharesTheConfigDefinedBudget() {
    NamedRateLimiter limiter = configured.limiter();
    assertThat(limiter.name()).isEqualTo(LimitedCalls.CONFIGURED);
    assertThat(limiter.stats().permits()).isEqualTo(2);
    assertThat(limiter.stats().algorithm()).isEqualTo(LimiterAlgorithm.FIXED_WINDOW);
    String key = "injected-" + System.nanoTime();
    try (NamedRateLimiter.Permit first = limiter.tryAcquire(key);
        NamedRateLimiter.Permit second = limiter.tryAcquire(key);
        NamedRateLimiter.Permit third = limiter.tryAcquire(key)) {
      assertThat(first.granted()).isTrue();
      assertThat(second.granted()).isTrue();
      assertThat(third.granted()).isFalse();
      assertThat(third.retryAfter()).hasValueSatisfying(d -> assertThat(d).isPositive());
    }
  }

  private URI api(String path) throws Exception {
    return baseUrl.toURI().resolve("api/" + path);
  }
}
