package io.taskgate.jaxrs;

import io.taskgate.api.RateLimitExceededException;
import jakarta.annotation.Priority;
import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.time.Duration;

/**
 * Answers a {@link RateLimitExceededException} with 429 Too Many Requests: {@code Retry-After} in
 * whole seconds rounded up (when the limiter can tell) and an RFC 9457 {@code
 * application/problem+json} body naming the limiter and the key. Its priority is below the default
 * user priority, so an application's own {@code ExceptionMapper<RateLimitExceededException>} wins.
 */
@Provider
@Priority(Priorities.USER + 1000)
public class RateLimitExceededMapper implements ExceptionMapper<RateLimitExceededException> {

  /** The media type of the body. */
  public static final String PROBLEM_JSON = "application/problem+json";

  /** The problem type. */
  public static final String TYPE = "urn:taskgate:problem:rate-limit-exceeded";

  @Override
  public Response toResponse(RateLimitExceededException e) {
    JsonObjectBuilder body =
        Json.createObjectBuilder()
            .add("type", TYPE)
            .add("title", "Too many requests")
            .add("status", 429)
            .add(
                "detail",
                "Rate limit "
                    + e.limiter()
                    + " exceeded"
                    + e.retryAfter().map(d -> "; retry in " + seconds(d) + " s").orElse(""))
            .add("limiter", e.limiter())
            .add("key", e.key());
    Response.ResponseBuilder response = Response.status(429);
    e.retryAfter()
        .ifPresent(
            d -> {
              body.add("retryAfterSeconds", seconds(d));
              response.header("Retry-After", seconds(d));
            });
    return response.type(PROBLEM_JSON).entity(body.build().toString()).build();
  }

  /** Whole seconds, rounded up: a client that waits this long is not refused for being early. */
  static long seconds(Duration d) {
    long seconds = d.getSeconds();
    return d.getNano() > 0 ? seconds + 1 : seconds;
  }
}
