package io.taskgate.engine.cluster;

/** The version of Taskgate running here, from its jar's manifest ("unknown" when run unpacked). */
public final class TaskgateVersion {
  /** This build's version. */
  public static final String CURRENT = read();

  private TaskgateVersion() {}

  private static String read() {
    String version = TaskgateVersion.class.getPackage().getImplementationVersion();
    return version == null || version.isBlank() ? "unknown" : version;
  }
}
