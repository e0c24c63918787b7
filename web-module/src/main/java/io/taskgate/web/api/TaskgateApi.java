package io.taskgate.web.api;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Mounts every JAX-RS resource of this package under {@code /api}. */
@ApplicationPath("api")
public class TaskgateApi extends Application {}
