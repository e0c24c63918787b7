package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.JsonObject;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The EAR as users deploy it, on Payara Server 6: src-test/pom.xml creates a domain on non-default
 * ports, starts it and deploys ear/target/taskgate.ear in pre-integration-test, and stops it in
 * post-integration-test.
 */
class EarSmokeIT {

  /** Deploy has returned when the tests start; this only covers a slow first request. */
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

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
}
