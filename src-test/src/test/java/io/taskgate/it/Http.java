package io.taskgate.it;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** HTTP from the test side: plain GETs, JSON bodies, and waiting for a URL to answer 200. */
final class Http {

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration POLL_INTERVAL = Duration.ofMillis(250);
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();

  private Http() {}

  static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(uri)
            .timeout(REQUEST_TIMEOUT)
            .header("Accept", "application/json")
            .GET()
            .build();
    return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
  }

  /**
   * GETs {@code uri} until it answers 200, polling until {@code timeout} has passed.
   *
   * @param whereToLook added to the failure message: where to find out why it did not answer
   */
  static HttpResponse<String> awaitOk(URI uri, Duration timeout, String whereToLook)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String lastOutcome = "no attempt";
    while (true) {
      try {
        HttpResponse<String> response = get(uri);
        if (response.statusCode() == 200) {
          return response;
        }
        lastOutcome = "HTTP " + response.statusCode() + ": " + response.body();
      } catch (IOException e) {
        lastOutcome = e.toString();
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new AssertionError(
            "GET "
                + uri
                + " did not answer 200 within "
                + timeout
                + " (last outcome: "
                + lastOutcome
                + "). "
                + whereToLook);
      }
      Thread.sleep(POLL_INTERVAL.toMillis());
    }
  }

  static JsonObject json(HttpResponse<String> response) {
    try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
      return reader.readObject();
    }
  }
}
