package io.taskgate.web.api;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.ws.rs.core.Response;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An RFC 9457 problem the API answers with ({@code application/problem+json}): {@code type}, {@code
 * title}, {@code status}, {@code detail}, and extension members such as {@code parameter} (the
 * offending field or parameter) and {@code value} (what was sent). Thrown by resources, turned into
 * a response by {@link ApiProblemMapper}; the JSON is built with JSON-P, so every user-supplied
 * value is escaped. Extension values are written as JSON values (JSON-P values as they are, whole
 * numbers as numbers, collections as arrays of strings), anything else as a string.
 */
public class ApiProblem extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The media type of problem bodies. */
  public static final String MEDIA_TYPE = "application/problem+json";

  /** Problem type URIs: stable names for what went wrong. */
  static final String INVALID_PARAMETER = "urn:taskgate:problem:invalid-parameter";

  static final String UNKNOWN_TASK_TYPE = "urn:taskgate:problem:unknown-task-type";
  static final String INVALID_BODY = "urn:taskgate:problem:invalid-body";
  static final String TASK_NOT_FOUND = "urn:taskgate:problem:task-not-found";
  static final String NOT_CANCELLABLE = "urn:taskgate:problem:task-not-cancellable";
  static final String NOT_REQUEUEABLE = "urn:taskgate:problem:task-not-requeueable";
  static final String DUPLICATE_TASK = "urn:taskgate:problem:duplicate-task";
  static final String QUEUE_FULL = "urn:taskgate:problem:queue-full";
  static final String INVALID_TASK = "urn:taskgate:problem:invalid-task";
  static final String PAYLOAD_TOO_LARGE = "urn:taskgate:problem:payload-too-large";
  static final String UNSUPPORTED_MEDIA_TYPE = "urn:taskgate:problem:unsupported-media-type";
  static final String NOT_ACCEPTABLE = "urn:taskgate:problem:not-acceptable";
  static final String METHOD_NOT_ALLOWED = "urn:taskgate:problem:method-not-allowed";
  static final String NOT_FOUND = "urn:taskgate:problem:not-found";
  static final String INTERNAL_ERROR = "urn:taskgate:problem:internal-error";

  private final int status;
  private final String type;
  private final String title;
  private final transient Map<String, Object> extensions;

  ApiProblem(int status, String type, String title, String detail) {
    this(status, type, title, detail, Map.of());
  }

  ApiProblem(int status, String type, String title, String detail, Map<String, ?> extensions) {
    super(detail);
    this.status = status;
    this.type = type;
    this.title = title;
    this.extensions = new LinkedHashMap<>(extensions);
  }

  /** A 400 for one bad parameter, naming it and echoing its value. */
  static ApiProblem invalidParameter(String parameter, String value, String detail) {
    Map<String, Object> ext = new LinkedHashMap<>();
    ext.put("parameter", parameter);
    if (value != null) {
      ext.put("value", value);
    }
    return new ApiProblem(400, INVALID_PARAMETER, "Invalid parameter", detail, ext);
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }

  /** The response: this problem as {@code application/problem+json}. */
  public Response toResponse() {
    return Response.status(status).type(MEDIA_TYPE).entity(toJson().toString()).build();
  }

  /** The problem's JSON body. */
  JsonObject toJson() {
    JsonObjectBuilder body =
        Json.createObjectBuilder()
            .add("type", type)
            .add("title", title)
            .add("status", status)
            .add("detail", String.valueOf(getMessage()));
    extensions.forEach(
        (name, value) -> {
          if (value instanceof JsonValue json) {
            body.add(name, json);
          } else if (value instanceof Integer || value instanceof Long) {
            body.add(name, ((Number) value).longValue());
          } else if (value instanceof Collection<?> values) {
            var array = Json.createArrayBuilder();
            values.forEach(v -> array.add(String.valueOf(v)));
            body.add(name, array);
          } else if (value != null) {
            body.add(name, String.valueOf(value));
          }
        });
    return body.build();
  }
}
