package io.taskgate.web.api;

import io.taskgate.engine.admin.ClusterViews;
import io.taskgate.engine.admin.dto.ClusterView;
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

/** {@code GET /api/cluster}: the engine instances sharing the database and their heartbeats. */
@Path("cluster")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "cluster", description = "The instances sharing the database")
public class ClusterResource {
  @Inject ClusterViews views;

  /** The instances. */
  @GET
  @Operation(
      summary = "The instances sharing the database",
      description =
          "Every engine instance with a heartbeat row, as the answering instance last read them:"
              + " its identity, host, start, last beat and version, whether it is alive (its last"
              + " beat within instanceTimeout) and whether it is the one answering.")
  @APIResponse(
      responseCode = "200",
      description = "The instances",
      content =
          @Content(
              mediaType = MediaType.APPLICATION_JSON,
              schema = @Schema(implementation = ClusterView.class)))
  public ClusterView cluster() {
    return views.cluster();
  }
}
