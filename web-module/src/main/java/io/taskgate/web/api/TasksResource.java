package io.taskgate.web.api;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.InvalidDispatchOptionException;
import io.taskgate.api.TaskNotRequeueableException;
import io.taskgate.api.TaskReceipt;
import io.taskgate.engine.admin.LastErrors;
import io.taskgate.engine.admin.TaskAdmin;
import io.taskgate.engine.admin.TaskMaintenance;
import io.taskgate.engine.admin.dto.EndedTasks;
import io.taskgate.engine.admin.dto.TaskView;
import io.taskgate.engine.admin.dto.TaskViewPage;
import io.taskgate.web.security.Roles;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.UUID;

/**
 * {@code /api/tasks}: dispatch a task from JSON, list, show and cancel tasks. Parses the request
 * and hands off to {@link TaskAdmin}; reading requires the role {@code taskgate-viewer} or {@code
 * taskgate-admin}, dispatching and cancelling {@code taskgate-admin} (WEB-INF/web.xml).
 */
@Path("tasks")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class TasksResource {

  @Inject TaskAdmin admin;
  @Inject TaskMaintenance maintenance;
  @Inject InstantSource clock;
  @Context UriInfo uriInfo;
  @Context SecurityContext security;

  /**
   * Dispatches the body as a task of {@code type} (full class name or unique simple name). The body
   * must be JSON ({@link JsonBody}: 415, 413); the parameters and the task are checked before
   * anything is stored (400).
   */
  @POST
  @Path("{type}")
  public Response dispatch(
      @PathParam("type") String type,
      @QueryParam("delay") String delay,
      @QueryParam("at") String at,
      @QueryParam("queue") String queue,
      @QueryParam("taskKey") String taskKey,
      @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
      @HeaderParam(HttpHeaders.CONTENT_LENGTH) String contentLength,
      InputStream body) {
    DispatchOptions options = Params.dispatchOptions(delay, at, queue, taskKey);
    String json = JsonBody.read(contentType, contentLength, body, admin.maxPayloadBytes());
    TaskReceipt receipt;
    try {
      receipt = admin.dispatchJson(type, json, options);
    } catch (InvalidDispatchOptionException e) {
      throw Params.invalidOption(e, delay, at, queue, taskKey);
    }
    URI location =
        uriInfo
            .getBaseUriBuilder()
            .path(TasksResource.class)
            .path(receipt.taskId().toString())
            .build();
    DispatchResult result =
        new DispatchResult(
            receipt.taskId(),
            receipt.scheduledAt(),
            receipt.replaced(),
            receipt.estimatedStart(),
            receipt.duplicate());
    if (receipt.duplicate() && !receipt.replaced()) {
      return Response.ok(result).location(location).build(); // the existing task, kept
    }
    Response.ResponseBuilder accepted = Response.accepted(result).location(location);
    long wait = Duration.between(clock.instant(), receipt.estimatedStart()).toMillis();
    if (receipt.estimatedStart().isAfter(receipt.scheduledAt()) && wait > 0) {
      // throttled: when to look again, in whole seconds, rounded up
      accepted.header("Retry-After", (wait + 999) / 1000);
    }
    return accepted.build();
  }

  /**
   * A page of tasks, newest first, filtered by status, type, queue and rate-limit key; or, with
   * {@code throttled}, the tasks throttled on this instance (parked, held or waiting).
   */
  @GET
  public TaskViewPage list(
      @QueryParam("status") String status,
      @QueryParam("type") String type,
      @QueryParam("queue") String queue,
      @QueryParam("key") String key,
      @QueryParam("throttled") String throttled,
      @QueryParam("sort") String sort,
      @QueryParam("page") String page,
      @QueryParam("size") String size) {
    return forCaller(page(status, type, queue, key, throttled, sort, page, size));
  }

  private TaskViewPage page(
      String status,
      String type,
      String queue,
      String key,
      String throttled,
      String sort,
      String page,
      String size) {
    if (throttled != null && !throttled.isBlank()) {
      return admin.listThrottled(
          Params.throttled(throttled),
          Params.filter("type", type),
          Params.filter("queue", queue),
          Params.optionalText(key),
          Params.page(page),
          Params.size(size));
    }
    return admin.list(
        Params.status(status),
        Params.filter("type", type),
        Params.filter("queue", queue),
        Params.optionalText(key),
        Params.taskOrder(sort),
        Params.page(page),
        Params.size(size));
  }

  /** One task with its history. */
  @GET
  @Path("{id}")
  public TaskView find(@PathParam("id") String id) {
    UUID taskId = Params.uuid("id", id);
    return forCaller(admin.find(taskId).orElseThrow(() -> EngineProblemMappers.notFound(id)));
  }

  /**
   * {@code view} as the caller may see it: an admin its errors as stored, a viewer without the
   * names of the application's classes ({@link LastErrors#withoutClassNames}).
   */
  private TaskView forCaller(TaskView view) {
    return security.isUserInRole(Roles.ADMIN)
        ? view
        : view.withErrors(LastErrors::withoutClassNames);
  }

  private TaskViewPage forCaller(TaskViewPage page) {
    if (security.isUserInRole(Roles.ADMIN)) {
      return page;
    }
    return new TaskViewPage(
        page.items().stream().map(this::forCaller).toList(),
        page.page(),
        page.size(),
        page.total());
  }

  /**
   * Queues a FAILED or CANCELLED task again, due now, as new attempts of the same task (its history
   * kept, the requeue in it): 200 with the task; 404 unknown; 409 if it cannot be (not ended so, no
   * handler for its type, another task holds its task key).
   */
  @POST
  @Path("{id}/requeue")
  public TaskView requeue(@PathParam("id") String id) {
    UUID taskId = Params.uuid("id", id);
    try {
      return maintenance.requeue(taskId, user() + " through the REST API");
    } catch (TaskNotRequeueableException e) {
      String status = e.status() == null ? "unknown" : e.status().name();
      throw new ApiProblem(
          409,
          ApiProblem.NOT_REQUEUEABLE,
          "Task not requeueable",
          e.getMessage(),
          Map.of("id", id, "taskStatus", status));
    }
  }

  /**
   * Queues every task matching the filter again, as {@link #requeue} does one: {@code status}
   * ({@code failed}, {@code cancelled} or both, comma-separated; required), {@code type}, {@code
   * queue}, {@code key} (rate-limit key), {@code error} (text the last error contains), {@code
   * olderThan} and {@code newerThan} (ISO-8601 durations: ended at least, or less than, that long
   * ago). At most {@value TaskMaintenance#MAX_BULK} a call: {@code more} says whether to call
   * again.
   */
  @POST
  @Path("requeue")
  public Map<String, Object> requeueAll(@BeanParam EndedTaskParams query) {
    EndedTasks selection = query.selection();
    TaskMaintenance.Bulk bulk;
    try {
      bulk = maintenance.requeueAll(selection, user() + " through the REST API");
    } catch (IllegalArgumentException e) {
      throw ApiProblem.invalidParameter("status", query.status, e.getMessage());
    }
    Map<String, Object> answer = new java.util.LinkedHashMap<>();
    answer.put("requeued", bulk.done());
    answer.put("skipped", bulk.skipped());
    if (bulk.firstSkip() != null) {
      answer.put("firstSkip", bulk.firstSkip());
    }
    answer.put("more", bulk.more());
    return answer;
  }

  /**
   * Deletes every ended task matching the filter, with its audit rows: {@code status} ({@code
   * completed}, {@code failed}, {@code cancelled}, comma-separated; required) and the other filters
   * of {@link #requeueAll}. At most {@value TaskMaintenance#MAX_BULK} a call: {@code more} says
   * whether to call again.
   */
  @DELETE
  public Map<String, Object> deleteAll(@BeanParam EndedTaskParams query) {
    TaskMaintenance.Bulk bulk =
        maintenance.deleteAll(query.selection(), user() + " through the REST API");
    return Map.of("deleted", bulk.done(), "more", bulk.more());
  }

  private String user() {
    return security.getUserPrincipal().getName();
  }

  /** Cancels a task that has not started: 204; 409 if it has started or finished. */
  @DELETE
  @Path("{id}")
  public Response cancel(
      @PathParam("id") String id, @jakarta.ws.rs.core.Context SecurityContext caller) {
    UUID taskId = Params.uuid("id", id);
    if (admin.cancel(taskId, caller.getUserPrincipal().getName() + " through the REST API")) {
      return Response.noContent().build();
    }
    String status = admin.find(taskId).map(t -> t.status().name()).orElse("unknown");
    throw new ApiProblem(
        409,
        ApiProblem.NOT_CANCELLABLE,
        "Task not cancellable",
        "Task " + taskId + " is " + status + ": only a QUEUED task can be cancelled",
        Map.of("id", id, "taskStatus", status));
  }
}
