package io.taskgate.web.api;

import io.taskgate.engine.admin.TaskgateInfo;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** {@code GET /api/info}: name, version and status, for health checks and the admin page. */
@Path("info")
@RequestScoped
public class InfoResource {

  static final String NAME = "taskgate";
  static final String STATUS_UP = "UP";
  private static final String BUILD_PROPERTIES = "taskgate-build.properties";
  private static final String VERSION = readVersion();

  @Inject TaskgateInfo taskgateInfo;

  @GET
  @Produces(MediaType.APPLICATION_JSON)
  public ApiInfo info() {
    return new ApiInfo(NAME, VERSION, STATUS_UP, taskgateInfo.startedAt());
  }

  /** The Maven project version, written into a resource by the build (resource filtering). */
  private static String readVersion() {
    try (InputStream in = InfoResource.class.getResourceAsStream(BUILD_PROPERTIES)) {
      if (in == null) {
        throw new IllegalStateException(
            BUILD_PROPERTIES
                + " is missing next to "
                + InfoResource.class.getName()
                + ": build the WAR with Maven so that resource filtering writes it");
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + BUILD_PROPERTIES, e);
    }
  }
}
