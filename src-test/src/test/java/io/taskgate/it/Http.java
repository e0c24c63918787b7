package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.function.Predicate;

/**
 * HTTP from the test side: plain GETs, requests with Basic credentials, JSON bodies, and waiting
 * for a URL to answer 200.
 */
final class Http {

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration POLL_INTERVAL = Duration.ofMillis(250);
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();

  private Http() {}

  static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
    return get(uri, "application/json");
  }

  private static HttpResponse<String> get(URI uri, String accept)
      throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT).header("Accept", accept).GET().build();
    return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
  }

  /** The check named {@code name} of the readiness at {@code server}'s {@code /health/ready}. */
  static JsonObject readinessCheck(String server, String name)
      throws IOException, InterruptedException {
    return json(get(URI.create(server + "/health/ready")))
        .getJsonArray("checks")
        .getValuesAs(JsonObject.class)
        .stream()
        .filter(check -> check.getString("name").equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no readiness check " + name + " at " + server));
  }

  /** A GET that accepts text (Prometheus metrics). */
  static HttpResponse<String> getText(URI uri) throws IOException, InterruptedException {
    return get(uri, "text/plain");
  }

  /** The {@code ids} of a test resource's batch answer: 200, and {@code n} of them. */
  static List<String> batchIds(HttpResponse<String> response, int n) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    List<String> ids =
        json(response).getJsonArray("ids").getValuesAs(JsonString.class).stream()
            .map(JsonString::getString)
            .toList();
    assertThat(ids).hasSize(n);
    return ids;
  }

  /**
   * Sends {@code method} to {@code uri} with an optional JSON body and optional Basic credentials
   * ({@code user} null: none).
   */
  static HttpResponse<String> send(
      String method, URI uri, String jsonBody, String user, String password)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(REQUEST_TIMEOUT)
            .header("Accept", "application/json")
            .method(
                method,
                jsonBody == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(jsonBody));
    if (jsonBody != null) {
      request.header("Content-Type", "application/json");
    }
    if (user != null) {
      String token = user + ":" + password;
      request.header(
          "Authorization",
          "Basic " + Base64.getEncoder().encodeToString(token.getBytes(StandardCharsets.UTF_8)));
    }
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * GETs {@code uri} with Basic credentials until {@code done} accepts the JSON object it answers,
   * polling until {@code timeout} has passed; returns that object.
   */
  static JsonObject awaitJson(
      URI uri, String user, String password, Predicate<JsonObject> done, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      HttpResponse<String> response = send("GET", uri, null, user, password);
      if (response.statusCode() == 200) {
        JsonObject body = json(response);
        if (done.test(body)) {
          return body;
        }
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new AssertionError(
            "GET "
                + uri
                + " did not reach the expected state within "
                + timeout
                + ": HTTP "
                + response.statusCode()
                + " "
                + response.body());
      }
      Thread.sleep(100);
    }
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
    return json(response.body());
  }

  static JsonObject json(String text) {
    try (JsonReader reader = Json.createReader(new StringReader(text))) {
      return reader.readObject();
    }
  }
}
