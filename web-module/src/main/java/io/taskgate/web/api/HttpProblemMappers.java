package io.taskgate.web.api;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What JAX-RS refuses before a resource runs (no such path, method, or acceptable media type), and
 * any unexpected failure, as problems too: the API answers {@code application/problem+json} for
 * every error it sees. Requests the server refuses before the application (a malformed URI, a
 * request head over its size limit, no credentials) never reach these.
 */
public final class HttpProblemMappers {
  private static final Logger LOG = Logger.getLogger(HttpProblemMappers.class.getName());

  private HttpProblemMappers() {}

  /** 404, 405, 406, 415 and the other statuses JAX-RS answers by itself. */
  @Provider
  public static class HttpError implements ExceptionMapper<WebApplicationException> {
    @Context HttpHeaders headers;

    @Override
    public Response toResponse(WebApplicationException e) {
      Response original = e.getResponse();
      if (original.hasEntity()) {
        return original; // built on purpose
      }
      int status = original.getStatus();
      Map<String, Object> ext = new LinkedHashMap<>();
      String type;
      String title;
      String detail;
      switch (status) {
        case 404 -> {
          type = ApiProblem.NOT_FOUND;
          title = "Not found";
          detail = "No API resource has this path: see /openapi for the API's paths";
        }
        case 405 -> {
          type = ApiProblem.METHOD_NOT_ALLOWED;
          title = "Method not allowed";
          detail =
              "This path does not take that method; it takes "
                  + String.join(", ", new java.util.TreeSet<>(original.getAllowedMethods()));
        }
        case 406 -> {
          type = ApiProblem.NOT_ACCEPTABLE;
          title = "Not acceptable";
          detail =
              "The API answers application/json (errors application/problem+json): accept one"
                  + " of them";
          ext.put("parameter", "Accept");
          String accept = headers == null ? null : headers.getHeaderString(HttpHeaders.ACCEPT);
          if (accept != null) {
            ext.put("value", accept);
          }
        }
        case 415 -> {
          type = ApiProblem.UNSUPPORTED_MEDIA_TYPE;
          title = "Unsupported media type";
          detail = "The body must be JSON: send Content-Type: application/json";
          ext.put("parameter", "Content-Type");
        }
        default -> {
          type = "about:blank";
          title = original.getStatusInfo().getReasonPhrase();
          detail = title;
          if (status >= 500) {
            LOG.log(Level.WARNING, "The API answered " + status, e);
          }
        }
      }
      Response problem = new ApiProblem(status, type, title, detail, ext).toResponse();
      Response.ResponseBuilder answer = Response.fromResponse(problem);
      original
          .getStringHeaders()
          .forEach(
              (name, values) -> {
                if (!name.equalsIgnoreCase(HttpHeaders.CONTENT_TYPE)
                    && !name.equalsIgnoreCase(HttpHeaders.CONTENT_LENGTH)) {
                  values.forEach(v -> answer.header(name, v));
                }
              });
      return answer.build();
    }
  }

  /**
   * 500 for anything else a resource throws: logged with its stack trace under an incident id,
   * which the problem names ({@code incident}); the exception's message stays in the log.
   */
  @Provider
  public static class UnexpectedError implements ExceptionMapper<Throwable> {
    @Override
    public Response toResponse(Throwable e) {
      String incident = UUID.randomUUID().toString();
      LOG.log(Level.SEVERE, "API request failed, incident " + incident, e);
      return problem(incident).toResponse();
    }

    /** The problem for {@code incident}: nothing of the exception, which stays in the log. */
    static ApiProblem problem(String incident) {
      return new ApiProblem(
          500,
          ApiProblem.INTERNAL_ERROR,
          "Internal error",
          "The server could not handle the request; its log has the details under incident "
              + incident,
          Map.of("incident", incident));
    }
  }
}
