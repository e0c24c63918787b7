package io.taskgate.api;

/**
 * A semaphore that tasks still hold cannot be removed: set its annotations to {@link
 * ThrottlerMode#RELEASE_ONLY} first, let the holders end, then remove it.
 */
public class ThrottlerInUseException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /**
   * @param kind the kind of throttler
   * @param id its id
   * @param holders how many tasks hold it
   */
  public ThrottlerInUseException(ThrottlerKind kind, String id, int holders) {
    super(
        kind.label()
            + " '"
            + id
            + "' is held by "
            + holders
            + (holders == 1 ? " task" : " tasks")
            + " and cannot be removed: mark its annotations mode = RELEASE_ONLY, let them end,"
            + " then remove it");
  }
}
