package io.taskgate.web.api;

import io.taskgate.engine.admin.dto.EndedTasks;
import jakarta.ws.rs.QueryParam;

/**
 * The query of a bulk action on ended tasks: {@code status} (required), {@code type}, {@code
 * queue}, {@code key}, {@code error}, {@code olderThan}, {@code newerThan}; see {@link
 * Params#ended}.
 */
public class EndedTaskParams {
  @QueryParam("status")
  String status;

  @QueryParam("type")
  String type;

  @QueryParam("queue")
  String queue;

  @QueryParam("key")
  String key;

  @QueryParam("error")
  String error;

  @QueryParam("olderThan")
  String olderThan;

  @QueryParam("newerThan")
  String newerThan;

  /**
   * The ended tasks the query selects.
   *
   * @throws ApiProblem 400 naming the parameter
   */
  EndedTasks selection() {
    return Params.ended(status, type, queue, key, error, olderThan, newerThan);
  }
}
