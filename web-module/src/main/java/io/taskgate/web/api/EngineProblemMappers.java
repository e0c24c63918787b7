package io.taskgate.web.api;

import io.taskgate.engine.InvalidTaskPayloadException;
import io.taskgate.engine.QueueFullException;
import io.taskgate.engine.TaskNotFoundException;
import io.taskgate.engine.UnknownTaskTypeException;
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
