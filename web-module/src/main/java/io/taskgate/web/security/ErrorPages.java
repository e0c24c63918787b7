package io.taskgate.web.security;

import jakarta.json.Json;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * What the container answers when it refuses a request or fails (the error pages of
 * WEB-INF/web.xml), whatever the request's method: the REST API gets a problem ({@code
 * application/problem+json}), the pages the plain page of {@code /errors}. A static error page
 * would be served by the default servlet, which answers a method it does not know (PATCH) with 501
 * instead of the refusal: a viewer's PATCH would not read as forbidden.
 */
@WebServlet(ErrorPages.PATH + "/*")
public class ErrorPages extends HttpServlet {
  private static final long serialVersionUID = 1L;

  /** Where web.xml sends the errors: {@code /error-page/403}. */
  static final String PATH = "/error-page";

  /**
   * What an error answers.
   *
   * @param contentType the response's content type
   * @param problem the problem JSON for the API; null for a page
   * @param page the static page under the context root for the pages; null for the API
   */
  record Answer(String contentType, String problem, String page) {}

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
    int status = code instanceof Integer c ? c : HttpServletResponse.SC_INTERNAL_SERVER_ERROR;
    Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
    String path =
        uri instanceof String u && u.startsWith(request.getContextPath())
            ? u.substring(request.getContextPath().length())
            : "";
    Answer answer = answer(status, path);
    response.setStatus(status);
    response.setContentType(answer.contentType());
    if (answer.problem() != null) {
      response.getOutputStream().write(answer.problem().getBytes(StandardCharsets.UTF_8));
      return;
    }
    try (InputStream page = getServletContext().getResourceAsStream(answer.page())) {
      if (page != null) {
        page.transferTo(response.getOutputStream());
      }
    }
  }

  /** The answer to an error of {@code status} for the context-relative {@code path}. */
  static Answer answer(int status, String path) {
    if (path.equals("/api") || path.startsWith("/api/")) {
      String[] titled = titled(status);
      return new Answer(
          "application/problem+json;charset=UTF-8",
          Json.createObjectBuilder()
              .add("type", "urn:taskgate:problem:" + titled[0])
              .add("title", titled[1])
              .add("status", status)
              .add("detail", titled[2])
              .build()
              .toString(),
          null);
    }
    String page =
        switch (status) {
          case HttpServletResponse.SC_FORBIDDEN -> "/errors/forbidden.html";
          case HttpServletResponse.SC_NOT_FOUND -> "/errors/not-found.html";
          default -> "/errors/error.html";
        };
    return new Answer("text/html;charset=UTF-8", null, page);
  }

  private static String[] titled(int status) {
    return switch (status) {
      case HttpServletResponse.SC_FORBIDDEN ->
          new String[] {
            "forbidden",
            "Forbidden",
            "Only an admin (role " + Roles.ADMIN + ") may change anything through the API"
          };
      case HttpServletResponse.SC_NOT_FOUND ->
          new String[] {
            "not-found",
            "Not found",
            "No API resource has this path: see /openapi for the API's paths"
          };
      default ->
          new String[] {"internal-error", "Internal error", "The server failed; its log says why"};
    };
  }
}
