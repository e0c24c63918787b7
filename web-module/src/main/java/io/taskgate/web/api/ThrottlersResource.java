package io.taskgate.web.api;

import io.taskgate.api.SettingRanges;
import io.taskgate.api.ThrottlerInUseException;
import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.UnknownTaskTypeException;
import io.taskgate.api.WindowOptions;
import io.taskgate.core.limit.Limit;
import io.taskgate.core.throttle.JobKind;
import io.taskgate.engine.admin.ThrottlerAdmin;
import io.taskgate.engine.admin.dto.ThrottlerChangeView;
import io.taskgate.engine.admin.dto.ThrottlerView;
import io.taskgate.engine.admin.dto.ThrottlersView;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.io.InputStream;
import java.io.StringReader;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code /api/throttlers}: the job throttlers (mutexes, semaphores, windows), what they hold and
 * keep waiting, and their definitions, changed by an admin ({@code PUT}, {@code DELETE}), every
 * change audited with the user's name.
 */
@Path("throttlers")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "throttlers", description = "Mutexes, semaphores and windows")
public class ThrottlersResource {
  static final String UNKNOWN_THROTTLER = "urn:taskgate:problem:unknown-throttler";
  static final String THROTTLER_IN_USE = "urn:taskgate:problem:throttler-in-use";
  private static final int MAX_BODY = 4_096;
  private static final Set<String> SEMAPHORE_FIELDS = Set.of("maxCount");
  private static final Set<String> RATE_FIELDS =
      Set.of(Limit.PERMITS, Limit.PERIOD, Limit.BURST, "key", RateScope.FIELD);
  private static final Set<String> WINDOW_FIELDS =
      Set.of("limit", "interval", "buckets", "capacity", "minLimit", "maxLimit");

  @Inject ThrottlerAdmin admin;
  @Context SecurityContext security;

  @GET
  @Operation(
      summary = "Job throttlers",
      description =
          "Every defined semaphore and window, every held mutex, and every semaphore or window a"
              + " handler names but nobody defined; how each task type uses them; the latest"
              + " definition changes.")
  @APIResponse(
      responseCode = "200",
      description = "The throttlers",
      content = @Content(schema = @Schema(implementation = ThrottlersView.class)))
  public ThrottlersView list() {
    return admin.list();
  }

  @GET
  @Path("changes")
  @Operation(summary = "Definition changes, newest first")
  public List<ThrottlerChangeView> changes(@QueryParam("size") String size) {
    return admin.changes(Params.size(size));
  }

  @GET
  @Path("{kind}/{id}")
  @Operation(summary = "One throttler")
  @APIResponse(
      responseCode = "404",
      description = "No such throttler",
      content = @Content(mediaType = ApiProblem.MEDIA_TYPE))
  public ThrottlerView find(@PathParam("kind") String kind, @PathParam("id") String id) {
    return admin
        .find(kind, id)
        .orElseThrow(
            () ->
                unknown(
                    admin.isListedKind(kind) ? kind.toLowerCase(Locale.ROOT) : kind(kind).label(),
                    id));
  }

  /**
   * One throttler, its id given as the query parameter {@code id}: the form for an id with a colon
   * (a concurrency limit's, {@code com.acme.Export:{tenant}}), which Payara 7's authorization
   * refuses in a path before the request reaches Taskgate.
   */
  @GET
  @Path("{kind}")
  @Operation(summary = "One throttler, by ?id= (ids with a colon)")
  @APIResponse(
      responseCode = "404",
      description = "No such throttler",
      content = @Content(mediaType = ApiProblem.MEDIA_TYPE))
  public ThrottlerView findById(@PathParam("kind") String kind, @QueryParam("id") String id) {
    if (id == null || id.isBlank()) {
      throw ApiProblem.invalidParameter("id", id, "the throttler's id is required");
    }
    return find(kind, id);
  }

  /**
   * Defines or changes a semaphore ({@code {"maxCount": 3}}) or a window ({@code {"limit": 5,
   * "interval": "PT2S", "buckets": 1}}, dynamic windows also {@code capacity}, {@code minLimit},
   * {@code maxLimit}).
   */
  @PUT
  @Path("{kind}/{id}")
  @Operation(summary = "Define or change a semaphore or window (admin)")
  @APIResponse(
      responseCode = "400",
      description = "A bad field, named in the problem",
      content = @Content(mediaType = ApiProblem.MEDIA_TYPE))
  public Response put(
      @PathParam("kind") String kind,
      @PathParam("id") String id,
      @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
      @HeaderParam(HttpHeaders.CONTENT_LENGTH) String contentLength,
      InputStream body) {
    ThrottlerKind k = kind(kind);
    JsonObject json = object(JsonBody.read(contentType, contentLength, body, MAX_BODY));
    String by = user();
    try {
      if (k == ThrottlerKind.RATE_LIMIT) {
        only(json, RATE_FIELDS);
        Limit limit = LimitFields.taskRate(json);
        return Response.ok(
                admin.setRateLimit(
                    id, RateScope.of(json), limit.permits(), limit.period(), limit.burst(), by))
            .build();
      }
      if (!JobKind.of(k).defined()) {
        throw ApiProblem.invalidParameter(
            "kind", kind, "mutexes are not defined: they are created on first use");
      }
      if (!JobKind.of(k).windowed()) {
        only(json, SEMAPHORE_FIELDS);
        return Response.ok(admin.putSemaphore(id, count(json, "maxCount", null), by)).build();
      }
      only(json, WINDOW_FIELDS);
      WindowOptions options =
          new WindowOptions(
              integer(json, "limit", json.containsKey("maxLimit") ? 0 : null),
              duration(json, "interval"),
              integer(json, "buckets", 1),
              integer(json, "capacity", 0),
              integer(json, "minLimit", 0),
              integer(json, "maxLimit", 0));
      return Response.ok(admin.putWindow(k, id, options, by)).build();
    } catch (UnknownTaskTypeException e) {
      throw new ApiProblem(
          404, UNKNOWN_THROTTLER, "Unknown task type", e.getMessage(), Map.of("id", id));
    } catch (IllegalArgumentException e) {
      throw invalid(json, e);
    }
  }

  @DELETE
  @Path("{kind}/{id}")
  @Operation(summary = "Remove a semaphore or window (admin); 409 while a semaphore is held")
  public Response remove(
      @PathParam("kind") String kind,
      @PathParam("id") String id,
      @QueryParam("key") String key,
      @QueryParam("scope") String scope) {
    ThrottlerKind k = kind(kind);
    try {
      boolean removed =
          k == ThrottlerKind.RATE_LIMIT
              ? admin.resetRateLimit(id, RateScope.of(key, scope), user())
              : admin.remove(k, id, user());
      if (removed) {
        return Response.noContent().build();
      }
    } catch (ThrottlerInUseException e) {
      throw new ApiProblem(
          409, THROTTLER_IN_USE, "Throttler in use", e.getMessage(), Map.of("id", id));
    } catch (UnknownTaskTypeException e) {
      throw new ApiProblem(
          404, UNKNOWN_THROTTLER, "Unknown task type", e.getMessage(), Map.of("id", id));
    } catch (IllegalArgumentException e) {
      throw e.getMessage().startsWith("key ")
          ? ApiProblem.invalidParameter("key", key, e.getMessage())
          : ApiProblem.invalidParameter("id", id, e.getMessage());
    }
    throw unknown(k, id);
  }

  private String user() {
    return security.getUserPrincipal() == null ? "unknown" : security.getUserPrincipal().getName();
  }

  private static ThrottlerKind kind(String kind) {
    try {
      ThrottlerKind k = ThrottlerKind.parse(kind);
      if (k == ThrottlerKind.PAUSE) {
        throw new IllegalArgumentException("a pause is not a throttler: pauses are at /api/pauses");
      }
      return k;
    } catch (IllegalArgumentException e) {
      throw new ApiProblem(
          404, UNKNOWN_THROTTLER, "Unknown throttler kind", e.getMessage(), Map.of("kind", kind));
    }
  }

  private static ApiProblem unknown(ThrottlerKind kind, String id) {
    return unknown(kind.label(), id);
  }

  private static ApiProblem unknown(String kind, String id) {
    return new ApiProblem(
        404,
        UNKNOWN_THROTTLER,
        "Unknown throttler",
        "No " + kind + " '" + id + "' is defined, held or named by a handler",
        Map.of("kind", kind, "id", id));
  }

  static JsonObject object(String text) {
    try (JsonReader reader = Json.createReader(new StringReader(text))) {
      return reader.readObject();
    } catch (JsonException | IllegalStateException e) {
      throw new ApiProblem(
          400,
          ApiProblem.INVALID_BODY,
          "Invalid body",
          "the body must be a JSON object: " + e.getMessage());
    }
  }

  static void only(JsonObject json, Set<String> fields) {
    for (String name : json.keySet()) {
      if (!fields.contains(name)) {
        throw ApiProblem.invalidParameter(
            name, String.valueOf(json.get(name)), "unknown field " + name + "; known: " + fields);
      }
    }
  }

  static int integer(JsonObject json, String name, Integer fallback) {
    JsonValue value = json.get(name);
    if (value == null || value == JsonValue.NULL) {
      if (fallback == null) {
        throw ApiProblem.invalidParameter(name, null, name + " is required");
      }
      return fallback;
    }
    if (!(value instanceof JsonNumber n) || !n.isIntegral()) {
      throw ApiProblem.invalidParameter(
          name, value.toString(), name + " must be a whole number, was " + value);
    }
    try {
      return n.intValueExact();
    } catch (ArithmeticException e) {
      throw ApiProblem.invalidParameter(name, value.toString(), name + " is too large");
    }
  }

  /** A count field within {@link SettingRanges#count}: 400 naming it otherwise. */
  static int count(JsonObject json, String name, Integer fallback) {
    JsonValue sent = json.get(name);
    int value = integer(json, name, fallback);
    try {
      return SettingRanges.count(name, value);
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidParameter(
          name, sent == null ? null : sent.toString(), e.getMessage());
    }
  }

  /** A period field within {@link SettingRanges#period}: 400 naming it otherwise. */
  static Duration period(JsonObject json, String name) {
    Duration value = duration(json, name);
    try {
      return SettingRanges.period(name, value);
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidParameter(name, json.get(name).toString(), e.getMessage());
    }
  }

  static Duration duration(JsonObject json, String field) {
    JsonValue value = json.get(field);
    if (!(value instanceof JsonString text)) {
      throw ApiProblem.invalidParameter(
          field,
          value == null ? null : value.toString(),
          field + " is required, an ISO-8601 duration such as PT2S or PT1H");
    }
    try {
      return Duration.parse(text.getString().trim());
    } catch (DateTimeParseException | ArithmeticException e) {
      throw ApiProblem.invalidParameter(
          field, text.getString(), field + " must be an ISO-8601 duration such as PT1H");
    }
  }

  /** A refused definition as a 400 naming the field its message starts with. */
  static ApiProblem invalid(JsonObject json, IllegalArgumentException e) {
    String message = e.getMessage();
    String field = "body";
    for (String name :
        List.of(
            "maxCount",
            "limit",
            "interval",
            "buckets",
            "capacity",
            "minLimit",
            "maxLimit",
            "permits",
            "period",
            "burst",
            "key",
            "id")) {
      if (message.startsWith(name + " ")
          || message.startsWith("a fixed window has 1 bucket") && name.equals("buckets")) {
        field = name;
        break;
      }
    }
    if (message.startsWith("resource id")) {
      field = "id";
    }
    JsonValue sent = json.get(field);
    return ApiProblem.invalidParameter(field, sent == null ? null : sent.toString(), message);
  }
}
