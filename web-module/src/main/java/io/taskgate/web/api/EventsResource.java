package io.taskgate.web.api;

import io.taskgate.engine.admin.dto.MonitorEvent;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code GET /api/events}: the monitoring stream as server-sent events. */
@Path("events")
@RequestScoped
@Tag(name = "events", description = "The live monitoring stream")
public class EventsResource {
  static final List<String> NAMES =
      List.of(
          MonitorEvent.DEFERRED,
          MonitorEvent.FAIL_OPEN,
          MonitorEvent.REJECTED,
          MonitorEvent.TRANSITION);

  @Inject EventStream stream;

  /** Opens the stream; {@code events} (comma-separated names) narrows it. */
  @GET
  @Produces(MediaType.SERVER_SENT_EVENTS)
  @Operation(
      summary = "Live monitoring events",
      description =
          "Server-sent events named rate-limit-deferred (the first deferral of a key per minute,"
              + " then one summary per minute), rate-limit-fail-open, rate-limit-rejected and"
              + " task-transition; each data is one JSON object.")
  @APIResponse(
      responseCode = "200",
      description = "The stream",
      content = @Content(mediaType = MediaType.SERVER_SENT_EVENTS))
  @APIResponse(responseCode = "400", description = "An unknown event name")
  public void events(
      @Parameter(description = "Only these events, comma-separated (default: all)")
          @QueryParam("events")
          String events,
      @Context SseEventSink sink,
      @Context Sse sse) {
    Set<String> names = new LinkedHashSet<>();
    if (events != null && !events.isBlank()) {
      for (String name : events.split(",")) {
        String wanted = name.strip();
        if (!NAMES.contains(wanted)) {
          throw ApiProblem.invalidParameter(
              "events", events, "events must be a comma-separated list of " + NAMES);
        }
        names.add(wanted);
      }
    }
    stream.open(sink, sse, Set.copyOf(names));
  }
}
