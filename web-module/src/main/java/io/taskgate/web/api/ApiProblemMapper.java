package io.taskgate.web.api;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Answers an {@link ApiProblem} as {@code application/problem+json}. */
@Provider
public class ApiProblemMapper implements ExceptionMapper<ApiProblem> {
  @Override
  public Response toResponse(ApiProblem problem) {
    return problem.toResponse();
  }
}
