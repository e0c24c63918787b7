package io.taskgate.engine.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The version of Taskgate running here, from {@code build.properties} beside this class (written by
 * the build), else from its jar's manifest; "unknown" when neither says. The resource is read
 * however the server unpacks the application (Payara Server deploys an EAR unpacked, and then the
 * manifest is not read).
 */
public final class TaskgateVersion {
  /** This build's version. */
  public static final String CURRENT = read();

  private TaskgateVersion() {}

  private static String read() {
    String version = null;
    try (InputStream in = TaskgateVersion.class.getResourceAsStream("build.properties")) {
      if (in != null) {
        Properties properties = new Properties();
        properties.load(in);
        version = properties.getProperty("version");
      }
    } catch (IOException e) {
      version = null;
    }
    if (version == null || version.isBlank() || version.startsWith("${")) {
      version = TaskgateVersion.class.getPackage().getImplementationVersion();
    }
    return version == null || version.isBlank() ? "unknown" : version;
  }
}
