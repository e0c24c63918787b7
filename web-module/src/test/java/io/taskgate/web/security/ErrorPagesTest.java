package io.taskgate.web.security;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The container's errors: a problem for the API, a page for the pages, whatever the method. */
class ErrorPagesTest {

  @ParameterizedTest
  @CsvSource({
    "403, /api/tasks/1, forbidden",
    "403, /api, forbidden",
    "404, /api/nothing, not-found",
    "500, /api/tasks, internal-error"
  })
  void theApiGetsAProblem(int status, String path, String type) {
    ErrorPages.Answer answer = ErrorPages.answer(status, path);

    assertThat(answer.contentType()).startsWith("application/problem+json");
    assertThat(answer.page()).isNull();
    JsonObject problem;
    try (var reader = Json.createReader(new StringReader(answer.problem()))) {
      problem = reader.readObject();
    }
    assertThat(problem.getInt("status")).isEqualTo(status);
    assertThat(problem.getString("type")).isEqualTo("urn:taskgate:problem:" + type);
    assertThat(problem.getString("detail")).isNotBlank();
  }

  @ParameterizedTest
  @CsvSource({
    "403, /admin/overview.xhtml, /errors/forbidden.html",
    "404, /apis, /errors/not-found.html",
    "500, '', /errors/error.html"
  })
  void thePagesGetAPlainPage(int status, String path, String page) {
    ErrorPages.Answer answer = ErrorPages.answer(status, path);

    assertThat(answer.contentType()).startsWith("text/html");
    assertThat(answer.problem()).isNull();
    assertThat(answer.page()).isEqualTo(page);
  }
}
