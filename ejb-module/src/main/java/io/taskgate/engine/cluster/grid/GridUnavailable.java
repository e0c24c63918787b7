package io.taskgate.engine.cluster.grid;

/** The data grid did not answer in time, or failed. */
final class GridUnavailable extends Exception {
  private static final long serialVersionUID = 1L;

  GridUnavailable(String message, Throwable cause) {
    super(message, cause);
  }
}
