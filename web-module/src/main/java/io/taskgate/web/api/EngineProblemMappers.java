package io.taskgate.web.api;

import io.taskgate.api.DuplicateTaskException;
import io.taskgate.api.InvalidDispatchOptionException;
import io.taskgate.api.InvalidTaskException;
import io.taskgate.api.InvalidTaskPayloadException;
import io.taskgate.api.QueueFullException;
import io.taskgate.api.TaskNotFoundException;
import io.taskgate.api.TaskTooLargeException;
import io.taskgate.api.UnknownTaskTypeException;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.LinkedHashMap;
import java.util.Map;

/** The facade's exceptions as problems: what the user sent, in the user's terms. */
public final class EngineProblemMappers {
  private EngineProblemMappers() {}

  /** 400: no handler runs the task type in the path, or its simple name is shared. */
  @Provider
  public static class UnknownTaskType implements ExceptionMapper<UnknownTaskTypeException> {
    @Override
    public Response toResponse(UnknownTaskTypeException e) {
      Map<String, Object> ext = new LinkedHashMap<>();
      ext.put("parameter", "type");
      ext.put("value", e.type());
      if (e.ambiguous()) {
        ext.put("candidates", e.candidates());
      }
      ext.put("knownTypes", e.known());
      return new ApiProblem(
              400,
              ApiProblem.UNKNOWN_TASK_TYPE,
              e.ambiguous() ? "Ambiguous task type" : "Unknown task type",
              e.getMessage(),
              ext)
          .toResponse();
    }
  }

  /** 409: a task with the same unique key exists, and the type's policy rejects duplicates. */
  @Provider
  public static class DuplicateTask implements ExceptionMapper<DuplicateTaskException> {
    @Override
    public Response toResponse(DuplicateTaskException e) {
      Map<String, Object> ext = new LinkedHashMap<>();
      ext.put("taskType", e.type());
      ext.put("taskKey", e.key());
      ext.put("existingTaskId", e.existingTaskId().toString());
      ext.put("existingStatus", e.existingStatus().name());
      return new ApiProblem(409, ApiProblem.DUPLICATE_TASK, "Duplicate task", e.getMessage(), ext)
          .toResponse();
    }
  }

  /** 400: the body is not JSON of the task type's shape. */
  @Provider
  public static class InvalidBody implements ExceptionMapper<InvalidTaskPayloadException> {
    @Override
    public Response toResponse(InvalidTaskPayloadException e) {
      return new ApiProblem(
              400,
              ApiProblem.INVALID_BODY,
              "Invalid task body",
              e.getMessage(),
              Map.of("parameter", "body", "taskType", e.type()))
          .toResponse();
    }
  }

  /**
   * 400: the task breaks its type's constraints (Bean Validation): {@code parameter} is {@code
   * body}, {@code field} the first broken field's property path, {@code violations} every one with
   * its {@code field}, {@code message} and {@code value}.
   */
  @Provider
  public static class InvalidTask implements ExceptionMapper<InvalidTaskException> {
    @Override
    public Response toResponse(InvalidTaskException e) {
      JsonArrayBuilder violations = Json.createArrayBuilder();
      e.violations()
          .forEach(
              v ->
                  violations.add(
                      Json.createObjectBuilder()
                          .add("field", v.field())
                          .add("message", v.message())
                          .add("value", v.value())));
      Map<String, Object> ext = new LinkedHashMap<>();
      ext.put("parameter", "body");
      ext.put("field", e.violations().get(0).field());
      ext.put("taskType", e.taskType());
      ext.put("violations", violations.build());
      return new ApiProblem(400, ApiProblem.INVALID_TASK, "Invalid task", e.getMessage(), ext)
          .toResponse();
    }
  }

  /** 413: the task's JSON is larger than {@code taskgate.dispatch.max-payload-bytes}. */
  @Provider
  public static class TaskTooLarge implements ExceptionMapper<TaskTooLargeException> {
    @Override
    public Response toResponse(TaskTooLargeException e) {
      Map<String, Object> ext = new LinkedHashMap<>();
      ext.put("parameter", "body");
      ext.put("taskType", e.taskType());
      ext.put("maxBytes", e.maxBytes());
      return new ApiProblem(
              413, ApiProblem.PAYLOAD_TOO_LARGE, "Payload too large", e.getMessage(), ext)
          .toResponse();
    }
  }

  /**
   * 400: a dispatch option the engine refused, naming it ({@link TasksResource} names the query
   * parameter with the text sent instead, where it can).
   */
  @Provider
  public static class InvalidDispatchOption
      implements ExceptionMapper<InvalidDispatchOptionException> {
    @Override
    public Response toResponse(InvalidDispatchOptionException e) {
      return ApiProblem.invalidParameter(e.option(), e.value(), e.getMessage()).toResponse();
    }
  }

  /** 404: no task has the id. */
  @Provider
  public static class TaskNotFound implements ExceptionMapper<TaskNotFoundException> {
    @Override
    public Response toResponse(TaskNotFoundException e) {
      return notFound(e.taskId().toString()).toResponse();
    }
  }

  /** 503: the queue's channel stayed full; the task is stored and runs when the queue drains. */
  @Provider
  public static class QueueFull implements ExceptionMapper<QueueFullException> {
    @Override
    public Response toResponse(QueueFullException e) {
      Response problem =
          new ApiProblem(503, ApiProblem.QUEUE_FULL, "Queue full", e.getMessage()).toResponse();
      return Response.fromResponse(problem).header("Retry-After", "5").build();
    }
  }

  static ApiProblem notFound(String id) {
    return new ApiProblem(
        404, ApiProblem.TASK_NOT_FOUND, "Task not found", "No task has id " + id, Map.of("id", id));
  }
}
