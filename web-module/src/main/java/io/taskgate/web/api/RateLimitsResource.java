package io.taskgate.web.api;

import io.taskgate.engine.admin.TaskAdmin;
import io.taskgate.engine.admin.ThrottleViews;
import io.taskgate.engine.admin.dto.Pacing;
import io.taskgate.engine.admin.dto.RateLimitPage;
import io.taskgate.engine.admin.dto.RateLimitQuery;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code /api/rate-limits}: the throttled view of the limiter's keys, and one key's pacing. Parses
 * the request and hands off to {@link ThrottleViews}; reading requires {@code taskgate-viewer} or
 * {@code taskgate-admin}.
 */
@Path("rate-limits")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "rate-limits", description = "What is throttled, why and until when")
public class RateLimitsResource {
  static final String NOT_RATE_LIMITED = "urn:taskgate:problem:not-rate-limited";

  @Inject ThrottleViews views;
  @Inject TaskAdmin tasks;

  /** A page of (task type, key) rows with the limiter's and the parking lot's totals. */
  @GET
  @Operation(
      summary = "Rate-limited keys",
      description =
          "Per (task type, key): parked tasks, next free slot, budget left and policy; plus"
              + " tracked keys, the fail-open count, parked and held tasks against their caps.")
  @APIResponse(
      responseCode = "200",
      description = "A page of rows",
      content =
          @Content(
              mediaType = MediaType.APPLICATION_JSON,
              schema = @Schema(implementation = RateLimitPage.class)))
  @APIResponse(
      responseCode = "400",
      description = "A bad parameter (unknown sort, negative page, size over 500, unknown type)",
      content = @Content(mediaType = ApiProblem.MEDIA_TYPE))
  public RateLimitPage list(
      @Parameter(description = "Task type: full class name or unique simple name")
          @QueryParam("type")
          String type,
      @Parameter(description = "Only keys containing this text (case-sensitive)") @QueryParam("key")
          String key,
      @Parameter(
              description = "Only keys throttled now or with parked tasks",
              schema = @Schema(type = SchemaType.BOOLEAN))
          @QueryParam("throttled")
          String throttled,
      @Parameter(
              description = "key (default), parked or nextSlot",
              schema = @Schema(enumeration = {"key", "parked", "nextSlot"}))
          @QueryParam("sort")
          String sort,
      @Parameter(
              description = "asc or desc; default asc for key, desc otherwise",
              schema = @Schema(enumeration = {"asc", "desc"}))
          @QueryParam("order")
          String order,
      @Parameter(description = "Page from 0", schema = @Schema(type = SchemaType.INTEGER))
          @QueryParam("page")
          String page,
      @Parameter(
              description = "Rows per page, 1 to " + RateLimitQuery.MAX_SIZE + " (default 50)",
              schema = @Schema(type = SchemaType.INTEGER))
          @QueryParam("size")
          String size) {
    return views.rateLimits(Params.rateLimitQuery(type, key, throttled, sort, order, page, size));
  }

  /** One key's pacing, the key in the path (any characters, '/' included). */
  @GET
  @Path("{type}/{key: .+}/pacing")
  @Operation(
      summary = "One key's pacing",
      description =
          "Recent starts (with their lateness) and reservations, and the parked tasks' slots,"
              + " for a timeline chart. The key may hold any characters, '/' included;"
              + " percent-encode the rest.")
  @APIResponse(
      responseCode = "200",
      description = "The key's pacing",
      content =
          @Content(
              mediaType = MediaType.APPLICATION_JSON,
              schema = @Schema(implementation = Pacing.class)))
  @APIResponse(
      responseCode = "404",
      description = "The task type is not rate-limited",
      content = @Content(mediaType = ApiProblem.MEDIA_TYPE))
  public Pacing pacing(@PathParam("type") String type, @PathParam("key") String key) {
    return pacingOf(type, Params.key("key", key));
  }

  /** One key's pacing, type and key as query parameters. */
  @GET
  @Path("pacing")
  @Operation(summary = "One key's pacing (query form)")
  @APIResponse(
      responseCode = "200",
      description = "The key's pacing",
      content =
          @Content(
              mediaType = MediaType.APPLICATION_JSON,
              schema = @Schema(implementation = Pacing.class)))
  public Pacing pacingByQuery(@QueryParam("type") String type, @QueryParam("key") String key) {
    return pacingOf(Params.required("type", type), Params.key("key", key));
  }

  /** What a bulk cancel did. */
  public record Cancelled(String taskType, String key, int cancelled) {}

  /**
   * Cancels every task of a type parked on this instance until a slot of a key (admin); each one's
   * audit names who did it.
   */
  @DELETE
  @Path("parked")
  @Operation(
      summary = "Cancel the tasks parked on one key (admin)",
      description =
          "Every task of the type parked on this instance until a slot of the key is cancelled;"
              + " a task that started meanwhile is not. Each one's audit and last error say who"
              + " cancelled it.")
  @APIResponse(
      responseCode = "200",
      description = "How many were cancelled",
      content =
          @Content(
              mediaType = MediaType.APPLICATION_JSON,
              schema = @Schema(implementation = Cancelled.class)))
  @APIResponse(
      responseCode = "400",
      description = "type or key missing, or an unknown type",
      content = @Content(mediaType = ApiProblem.MEDIA_TYPE))
  public Cancelled cancelParked(
      @QueryParam("type") String type,
      @QueryParam("key") String key,
      @Context SecurityContext caller) {
    String taskType = Params.required("type", type);
    String rateKey = Params.key("key", key);
    int cancelled =
        tasks.cancelParked(
            taskType, rateKey, caller.getUserPrincipal().getName() + " through the REST API");
    return new Cancelled(tasks.resolveTaskType(taskType), rateKey, cancelled);
  }

  private Pacing pacingOf(String type, String key) {
    return views
        .pacing(type, key)
        .orElseThrow(
            () ->
                new ApiProblem(
                    404,
                    NOT_RATE_LIMITED,
                    "Task type not rate-limited",
                    "Task type " + type + " has no rate-limit policy",
                    Map.of("taskType", type)));
  }
}
