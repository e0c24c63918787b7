package io.taskgate.web.api;

import io.taskgate.engine.admin.StatsViews;
import io.taskgate.engine.admin.dto.StatsView;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code GET /api/stats}: what happened to tasks minute by minute on the instances sharing the
 * database (started, completed, failed, parked, rejected by reason, let through at the key cap,
 * made to wait or dropped by a job throttler), per queue and task type, and the calls of each
 * {@code @RateLimited} limiter (granted, waited, refused, let through at the key cap), for the last
 * hour or as many minutes as asked, up to the minutes kept.
 */
@Path("stats")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "stats", description = "What happened to tasks and limited calls, minute by minute")
public class StatsResource {
  @Inject StatsViews stats;

  /** The series of the last minutes. */
  @GET
  @Operation(
      summary = "Per-minute counts of the last minutes",
      description =
          "One value a minute, the oldest first, starting at 'from'; the last minute is the"
              + " current one, still counting. Per (queue, task type) that counted anything in the"
              + " window, and their total, summed over the instances sharing the database (listed"
              + " in 'instances'); per @RateLimited limiter that counted a call, in 'limiters'"
              + " (the queue and type filters leave them be). Each instance writes its counts to the database at its"
              + " heartbeat (every 10 s by default), which keeps them 24 hours.")
  @APIResponse(
      responseCode = "200",
      description = "The series",
      content =
          @Content(
              mediaType = MediaType.APPLICATION_JSON,
              schema = @Schema(implementation = StatsView.class)))
  @APIResponse(
      responseCode = "400",
      description = "A bad parameter (minutes out of range, unknown type), named in the problem",
      content = @Content(mediaType = ApiProblem.MEDIA_TYPE))
  public StatsView read(
      @Parameter(
              description = "How many minutes, 1 to 1440; default 60",
              schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "1440"))
          @QueryParam("minutes")
          String minutes,
      @Parameter(description = "Only this queue") @QueryParam("queue") String queue,
      @Parameter(description = "Only this task type: full class name or unique simple name")
          @QueryParam("type")
          String type) {
    return stats.stats(
        Params.minutes(minutes, StatsViews.DEFAULT_MINUTES, stats.retainedMinutes()),
        Params.filter("queue", queue),
        Params.filter("type", type));
  }
}
