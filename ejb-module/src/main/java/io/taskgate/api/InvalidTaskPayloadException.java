package io.taskgate.api;

/** JSON that cannot be read as the task type it was sent for. */
public class InvalidTaskPayloadException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String type;
  private final String reason;

  public InvalidTaskPayloadException(String type, String reason, Throwable cause) {
    super("The body cannot be read as task type " + type + ": " + reason, cause);
    this.type = type;
    this.reason = reason;
  }

  /** The task type's full class name. */
  public String type() {
    return type;
  }

  /** Why, in the JSON parser's words. */
  public String reason() {
    return reason;
  }
}
