package io.taskgate.web.api;

import io.taskgate.api.LimiterAlgorithm;
import io.taskgate.api.LimiterStats;
import io.taskgate.core.limit.Limit;
import io.taskgate.engine.admin.LimiterAdmin;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code /api/limiters}: the limiters of {@code @RateLimited} methods and {@code @Limiter}
 * injection points on this instance, each one's limit and counts; an admin changes a limit ({@code
 * PUT}) or gives the declared one back ({@code DELETE}), audited with the user's name.
 */
@Path("limiters")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "limiters", description = "Rate limits on methods and resources")
public class LimitersResource {
  static final String UNKNOWN_LIMITER = "urn:taskgate:problem:unknown-limiter";
  private static final int MAX_BODY = 4_096;

  @Inject LimiterAdmin admin;
  @Context SecurityContext security;

  /** Every limiter. */
  public record LimitersView(List<LimiterInfo> limiters) {}

  @GET
  @Operation(
      summary =
          "Every limiter: its limit now, its counts on this instance, its refusals of the last"
              + " minute and its busiest keys")
  public LimitersView list() {
    return new LimitersView(admin.views().stream().map(LimiterInfo::of).toList());
  }

  @GET
  @Path("{name}")
  @Operation(summary = "One limiter")
  @APIResponse(
      responseCode = "404",
      description = "No such limiter",
      content = @Content(mediaType = ApiProblem.MEDIA_TYPE))
  public LimiterInfo find(@PathParam("name") String name) {
    return admin.view(name).map(LimiterInfo::of).orElseThrow(() -> unknown(name));
  }

  /**
   * Changes a limiter's limit: {@code {"permits": 10, "period": "PT1S", "burst": 10}} ({@code
   * burst} defaults to its algorithm's: 1 for GCRA, {@code permits} for the others).
   */
  @PUT
  @Path("{name}")
  @Operation(summary = "Change a limiter's limit at run time (admin)")
  @APIResponse(
      responseCode = "400",
      description = "A bad field, named in the problem",
      content = @Content(mediaType = ApiProblem.MEDIA_TYPE))
  public LimiterInfo put(
      @PathParam("name") String name,
      @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
      @HeaderParam(HttpHeaders.CONTENT_LENGTH) String contentLength,
      InputStream body) {
    LimiterAlgorithm algorithm =
        admin.find(name).map(LimiterStats::algorithm).orElseThrow(() -> unknown(name));
    JsonObject json =
        ThrottlersResource.object(JsonBody.read(contentType, contentLength, body, MAX_BODY));
    ThrottlersResource.only(json, LimitFields.NAMES);
    Limit limit = LimitFields.limit(json, algorithm);
    try {
      admin.set(name, limit.permits(), limit.period(), limit.burst(), user());
    } catch (IllegalArgumentException e) {
      throw ThrottlersResource.invalid(json, e);
    }
    return find(name);
  }

  @DELETE
  @Path("{name}")
  @Operation(summary = "Give a limiter its declared limit back (admin); 404 if it was not changed")
  public Response reset(@PathParam("name") String name) {
    if (admin.find(name).isEmpty() || !admin.reset(name, user())) {
      throw unknown(name);
    }
    return Response.noContent().build();
  }

  private String user() {
    return security.getUserPrincipal() == null ? "unknown" : security.getUserPrincipal().getName();
  }

  private static ApiProblem unknown(String name) {
    return new ApiProblem(
        404,
        UNKNOWN_LIMITER,
        "Unknown limiter",
        "No limiter '" + name + "' (or no change to it) on this instance",
        Map.of("name", name));
  }
}
