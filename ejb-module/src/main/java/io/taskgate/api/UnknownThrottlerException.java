package io.taskgate.api;

/**
 * A task names a semaphore or window that is not defined (never added, or removed): the task fails
 * with this as its error. Define it with {@link ThrottlingManager}.
 */
public class UnknownThrottlerException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final ThrottlerKind kind;
  private final String id;

  /**
   * @param kind the kind of throttler named
   * @param id its id
   * @param handler the handler class whose annotation names it
   */
  public UnknownThrottlerException(ThrottlerKind kind, String id, String handler) {
    super(
        "handler "
            + handler
            + " names "
            + kind.label()
            + " '"
            + id
            + "', which is not defined: add it with ThrottlingManager.addOrUpdate… or PUT"
            + " /api/throttlers/"
            + kind.label()
            + "/"
            + id);
    this.kind = kind;
    this.id = id;
  }

  /** The kind of throttler named. */
  public ThrottlerKind kind() {
    return kind;
  }

  /** Its id. */
  public String id() {
    return id;
  }
}
