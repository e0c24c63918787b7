package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.taskgate.api.RateLimitExceededException;
import io.taskgate.it.engine.LimitedCalls.Quotes;
import io.taskgate.it.engine.TestConfigSource;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.time.Duration;
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

  private URI api(String path) throws Exception {
    return baseUrl.toURI().resolve("api/" + path);
  }
}
