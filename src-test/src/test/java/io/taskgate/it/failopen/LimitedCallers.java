package io.taskgate.it.failopen;

import io.taskgate.api.RateLimitExceededException;
import io.taskgate.api.RateLimited;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Limits keyed by the caller, met by callers of three kinds, and the application's own mapper of
 * refusals, which wins over Taskgate's.
 */
public final class LimitedCallers {
  private LimitedCallers() {}

  /** {@code GET /api/failopen-limited}: once an hour per authenticated caller. */
  @Path("failopen-limited")
  @RequestScoped
  public static class LimitedResource {
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @RateLimited(value = "failopen-once", permits = 1, period = "PT1H", key = RateLimited.CALLER)
    public JsonObject call() {
      return Json.createObjectBuilder().add("answer", "ok").build();
    }
  }

  /** The application's answer to a refusal: its own body and a header saying whose it is. */
  @Provider
  public static class ApplicationMapper implements ExceptionMapper<RateLimitExceededException> {
    @Override
    public Response toResponse(RateLimitExceededException e) {
      return Response.status(429)
          .header("X-Mapped-By", "application")
          .type(MediaType.APPLICATION_JSON)
          .entity(
              Json.createObjectBuilder()
                  .add("limiter", e.limiter())
                  .add("key", e.key())
                  .build()
                  .toString())
          .build();
    }
  }

  /** A method limited once an hour per caller, called outside JAX-RS. */
  @ApplicationScoped
  public static class Calls {
    @RateLimited(
        value = "failopen-anonymous",
        permits = 1,
        period = "PT1H",
        key = RateLimited.CALLER)
    public String call() {
      return "ok";
    }
  }

  /**
   * {@code GET /anonymous-limited} (no login): calls {@link Calls#call} twice on the request's
   * thread, or with {@code ?where=thread} twice on a managed thread (no request, no caller), and
   * answers the key of the refusal.
   */
  @WebServlet("/anonymous-limited")
  public static class AnonymousServlet extends HttpServlet {
    @Inject Calls calls;
    @Resource ManagedExecutorService executor;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      String key;
      try {
        key =
            "thread".equals(request.getParameter("where"))
                ? executor.submit(this::refusedKey).get(10, TimeUnit.SECONDS)
                : refusedKey();
      } catch (InterruptedException | ExecutionException | TimeoutException e) {
        throw new IOException(e);
      }
      response.setContentType("text/plain");
      response.getWriter().write(key);
    }

    private String refusedKey() {
      try {
        calls.call();
        calls.call();
        return "not refused";
      } catch (RateLimitExceededException e) {
        return e.key();
      }
    }
  }
}
