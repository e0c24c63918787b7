package io.taskgate.web.api;

import io.taskgate.api.PauseScope;
import io.taskgate.api.UnknownTaskTypeException;
import io.taskgate.engine.admin.TaskMaintenance;
import io.taskgate.engine.admin.dto.PauseView;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code /api/pauses}: the queues, task types and rate-limit keys paused, each with the tasks it
 * holds; an admin pauses one ({@code POST}) or resumes it ({@code DELETE}), logged with the user's
 * name in the throttlers' change log.
 */
@Path("pauses")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "pauses", description = "Paused queues, task types and rate-limit keys")
public class PausesResource {
  static final String NOT_PAUSED = "urn:taskgate:problem:not-paused";
  private static final int MAX_BODY = 4_096;
  private static final Set<String> FIELDS = Set.of("scope", "name", "reason");

  @Inject TaskMaintenance maintenance;
  @Context SecurityContext security;

  /** Every pause in force. */
  public record PausesView(List<PauseView> pauses) {}

  @GET
  @Operation(summary = "The pauses in force, each with the QUEUED tasks it holds")
  public PausesView list() {
    return new PausesView(maintenance.pauses());
  }

  /**
   * Pauses a queue, a task type or a rate-limit key: {@code {"scope": "key", "name": "acme",
   * "reason": "their API is down"}}. 201 with the pause; 200 with the pause in force if it was
   * paused already (nothing changes).
   */
  @POST
  @Operation(summary = "Pause a queue, a task type or a rate-limit key (admin)")
  @APIResponse(
      responseCode = "400",
      description = "A bad field, named in the problem",
      content = @Content(mediaType = ApiProblem.MEDIA_TYPE))
  public Response pause(
      @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
      @HeaderParam(HttpHeaders.CONTENT_LENGTH) String contentLength,
      InputStream body) {
    JsonObject json =
        ThrottlersResource.object(JsonBody.read(contentType, contentLength, body, MAX_BODY));
    ThrottlersResource.only(json, FIELDS);
    PauseScope scope = scope(text(json, "scope", true));
    String name = text(json, "name", true);
    String reason = text(json, "reason", false);
    int before = maintenance.pauses().size();
    try {
      PauseView pause = maintenance.pause(scope, name, user(), reason);
      boolean added = maintenance.pauses().size() > before;
      return Response.status(added ? 201 : 200).entity(pause).build();
    } catch (UnknownTaskTypeException e) {
      throw ApiProblem.invalidParameter("name", name, e.getMessage());
    } catch (IllegalArgumentException e) {
      String field = e.getMessage().startsWith("reason") ? "reason" : "name";
      throw ApiProblem.invalidParameter(
          field, field.equals("reason") ? reason : name, e.getMessage());
    }
  }

  @DELETE
  @Operation(summary = "Resume a paused queue, task type or rate-limit key (admin)")
  @APIResponse(
      responseCode = "404",
      description = "It is not paused",
      content = @Content(mediaType = ApiProblem.MEDIA_TYPE))
  public Response resume(@QueryParam("scope") String scope, @QueryParam("name") String name) {
    if (scope == null || scope.isBlank()) {
      throw ApiProblem.invalidParameter("scope", scope, "scope is required: queue, type or key");
    }
    PauseScope parsed = scope(scope);
    if (name == null || name.isBlank()) {
      throw ApiProblem.invalidParameter("name", name, "name is required");
    }
    try {
      if (maintenance.resume(parsed, name, user()).isPresent()) {
        return Response.noContent().build();
      }
    } catch (UnknownTaskTypeException e) {
      // no such type, so not paused either
    }
    throw new ApiProblem(
        404,
        NOT_PAUSED,
        "Not paused",
        parsed.label() + " '" + name + "' is not paused",
        Map.of("scope", parsed.label(), "name", name));
  }

  private static PauseScope scope(String text) {
    try {
      return PauseScope.parse(text);
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidParameter("scope", text, e.getMessage());
    }
  }

  private static String text(JsonObject json, String field, boolean required) {
    JsonValue value = json.get(field);
    if (value == null || value == JsonValue.NULL) {
      if (required) {
        throw ApiProblem.invalidParameter(field, null, field + " is required");
      }
      return null;
    }
    if (!(value instanceof JsonString s)) {
      throw ApiProblem.invalidParameter(
          field, value.toString(), field + " must be a string, was " + value);
    }
    return s.getString();
  }

  private String user() {
    return security.getUserPrincipal() == null ? "unknown" : security.getUserPrincipal().getName();
  }
}
