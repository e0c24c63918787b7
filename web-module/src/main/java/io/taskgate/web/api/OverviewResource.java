package io.taskgate.web.api;

import io.taskgate.engine.admin.ThrottleViews;
import io.taskgate.engine.admin.dto.Overview;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code GET /api/overview}: task counts by status and per queue, with the throttled counts. */
@Path("overview")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "overview", description = "Tasks at a glance")
public class OverviewResource {
  @Inject ThrottleViews views;

  /** The overview. */
  @GET
  @Operation(
      summary = "Tasks at a glance",
      description =
          "Tasks per status, each queue with its sizes and counts; throttledTasks and each"
              + " queue's throttledCount are present only while tasks wait for budget.")
  @APIResponse(
      responseCode = "200",
      description = "The overview",
      content =
          @Content(
              mediaType = MediaType.APPLICATION_JSON,
              schema = @Schema(implementation = Overview.class)))
  public Overview overview() {
    return views.overview();
  }
}
