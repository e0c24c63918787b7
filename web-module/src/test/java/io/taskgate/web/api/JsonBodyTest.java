package io.taskgate.web.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class JsonBodyTest {
  private static final String JSON = "{\"name\":\"Zürich ✓\"}";

  @ParameterizedTest
  @ValueSource(
      strings = {
        "application/json",
        "Application/JSON",
        "application/json; charset=utf-8",
        "application/json;charset=\"UTF-8\"",
        "application/merge-patch+json",
        "application/vnd.taskgate.task+json; charset=UTF-8"
      })
  void jsonTypesAreReadAsUtf8UnlessTheyNameAnotherCharset(String contentType) {
    assertThat(JsonBody.read(contentType, null, utf8(JSON), 1024)).isEqualTo(JSON);
  }

  @Test
  void aDeclaredCharsetIsHonoured() {
    byte[] latin1 = "{\"name\":\"Zürich\"}".getBytes(StandardCharsets.ISO_8859_1);
    assertThat(
            JsonBody.read(
                "application/json; charset=ISO-8859-1",
                null,
                new ByteArrayInputStream(latin1),
                1024))
        .isEqualTo("{\"name\":\"Zürich\"}");
  }

  @ParameterizedTest
  @CsvSource(
      nullValues = "NULL",
      value = {
        "NULL, 'The body must be JSON: send Content-Type: application/json (it was missing)'",
        "'', 'The body must be JSON: send Content-Type: application/json (it was missing)'",
        "text/plain, 'The body must be JSON: send Content-Type: application/json (it was"
            + " ''text/plain'')'",
        "application/x-www-form-urlencoded, 'The body must be JSON: send Content-Type:"
            + " application/json (it was ''application/x-www-form-urlencoded'')'",
        "text/json, 'The body must be JSON: send Content-Type: application/json (it was"
            + " ''text/json'')'",
        "application/jsonx, 'The body must be JSON: send Content-Type: application/json (it was"
            + " ''application/jsonx'')'",
        "application/json; charset=klingon, 'The body''s charset ''klingon'' is unknown: send"
            + " JSON in UTF-8'",
      })
  void anythingButJsonIsUnsupportedNamingTheContentType(String contentType, String detail) {
    assertThatThrownBy(() -> JsonBody.read(contentType, null, utf8(JSON), 1024))
        .isInstanceOfSatisfying(
            ApiProblem.class,
            p -> {
              assertThat(p.status()).isEqualTo(415);
              JsonObject body = body(p);
              assertThat(body.getString("type"))
                  .isEqualTo("urn:taskgate:problem:unsupported-media-type");
              assertThat(body.getString("parameter")).isEqualTo("Content-Type");
              if (contentType == null || contentType.isBlank()) {
                assertThat(body.containsKey("value")).isFalse();
              } else {
                assertThat(body.getString("value")).isEqualTo(contentType);
              }
            })
        .hasMessage(detail);
  }

  @Test
  void aBodyUpToTheLimitIsReadAndOneByteMoreIsTooLarge() {
    String twenty = "{\"name\":\"ééééa\"}"; // é is 2 bytes
    assertThat(twenty.getBytes(StandardCharsets.UTF_8)).hasSize(20);
    assertThat(JsonBody.read("application/json", "20", utf8(twenty), 20)).isEqualTo(twenty);

    assertThatThrownBy(() -> JsonBody.read("application/json", null, utf8(twenty + " "), 20))
        .isInstanceOfSatisfying(
            ApiProblem.class,
            p -> {
              assertThat(p.status()).isEqualTo(413);
              assertThat(body(p).getString("type"))
                  .isEqualTo("urn:taskgate:problem:payload-too-large");
              assertThat(body(p).getString("parameter")).isEqualTo("body");
              assertThat(body(p).getInt("maxBytes")).isEqualTo(20);
            })
        .hasMessage(
            "The body is more than 20 bytes; at most 20 are accepted"
                + " (taskgate.dispatch.max-payload-bytes)");
  }

  @Test
  void aDeclaredLengthOverTheLimitIsRefusedBeforeReadingAByte() {
    AtomicLong read = new AtomicLong();
    InputStream endless =
        new InputStream() {
          @Override
          public int read() {
            read.incrementAndGet();
            return ' ';
          }
        };

    assertThatThrownBy(() -> JsonBody.read("application/json", "10485760", endless, 1_048_576))
        .isInstanceOfSatisfying(ApiProblem.class, p -> assertThat(p.status()).isEqualTo(413))
        .hasMessage(
            "The body is 10485760 bytes; at most 1048576 are accepted"
                + " (taskgate.dispatch.max-payload-bytes)");
    assertThat(read).hasValue(0);
    // without a length, reading stops one chunk past the limit
    assertThatThrownBy(() -> JsonBody.read("application/json", null, endless, 100))
        .isInstanceOfSatisfying(ApiProblem.class, p -> assertThat(p.status()).isEqualTo(413));
    assertThat(read.get()).isLessThanOrEqualTo(100 + 8192);
  }

  @Test
  void noBodyIsEmptyText() {
    assertThat(JsonBody.read("application/json", "0", utf8(""), 10)).isEmpty();
    assertThat(JsonBody.read("application/json", null, null, 10)).isEmpty();
  }

  private static InputStream utf8(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  private static JsonObject body(ApiProblem problem) {
    try (var reader = Json.createReader(new StringReader(problem.toJson().toString()))) {
      return reader.readObject();
    }
  }
}
