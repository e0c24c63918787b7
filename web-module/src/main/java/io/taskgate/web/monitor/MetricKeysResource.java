package io.taskgate.web.monitor;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code GET /api/metrics/keys}: which rate-limit key each per-key metric's {@code key} label
 * stands for. {@code /metrics} is open, so it carries labels ({@link KeyLabels}); the keys
 * themselves are here, for callers with {@code taskgate-viewer} or {@code taskgate-admin}.
 */
@Path("metrics/keys")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "metrics", description = "The keys behind the per-key metrics")
public class MetricKeysResource {
  @Inject TopKeyMetrics metrics;

  /**
   * The keys with per-key metrics now.
   *
   * @param labels {@code hashed} or {@code plain}
   * @param keys each key with its type and label, most parked tasks first
   */
  public record PublishedKeys(String labels, List<KeyLabel> keys) {}

  /** The keys with per-key metrics now. */
  @GET
  @Operation(
      summary = "The keys behind the per-key metrics",
      description =
          "The keys that have taskgate_rate_limit_key_* series now (refreshed every"
              + " taskgate.metrics.top-keys-refresh), each with its task type and the value of"
              + " the series' key label.")
  @APIResponse(
      responseCode = "200",
      description = "The keys and their labels",
      content =
          @Content(
              mediaType = MediaType.APPLICATION_JSON,
              schema = @Schema(implementation = PublishedKeys.class)))
  public PublishedKeys keys() {
    return new PublishedKeys(metrics.keyLabelMode(), metrics.publishedKeys());
  }
}
