package io.taskgate.engine.admin;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A task's last error (as the engine writes it: an exception's class name and message, the gate's
 * rejection, or a sentence) in the forms people read: {@link #sentence} for the admin pages, and
 * {@link #withoutClassNames} for viewers of the REST API, who see what went wrong but not the
 * application's classes.
 */
public final class LastErrors {
  private static final Pattern REJECTED =
      Pattern.compile(
          "io\\.taskgate\\.api\\.RateLimitRejectedException: Rate limit rejected task of type"
              + " \\S+: reason=(BEYOND_HORIZON|DISCARDED|COST_ABOVE_BURST) key=(.*) slotUtc=(\\S+) handler=.*",
          Pattern.DOTALL);

  /** A class name followed by its message: {@code com.acme.Outer$Failure: boom}. */
  private static final Pattern EXCEPTION =
      Pattern.compile("(?:[a-z_$][\\w$]*\\.)+([A-Z][\\w$]*): (.+)", Pattern.DOTALL);

  /** A class name with nothing after it (an exception without a message). */
  private static final Pattern CLASS_ONLY =
      Pattern.compile("(?:[a-z_$][\\w$]*\\.)+([A-Z][\\w$]*)\\s*");

  /** A class name starting a message nested in another ({@code …: java.io.IOException: reset}). */
  private static final Pattern NESTED = Pattern.compile("(?:[a-z_$][\\w$]*\\.)+[A-Z][\\w$]*: ");

  private LastErrors() {}

  /**
   * The last error as a sentence: the gate's rejection says why ({@code Rejected by the rate limit:
   * the next slot of key acme lay beyond the policy's horizon}); an exception's text is its
   * message, then its class's simple name in brackets; anything else as it is; empty for null.
   */
  public static String sentence(String lastError) {
    if (lastError == null) {
      return "";
    }
    String rejected = rejection(lastError);
    if (rejected != null) {
      return rejected;
    }
    Matcher exception = EXCEPTION.matcher(lastError);
    return exception.matches() ? exception.group(2) + " (" + exception.group(1) + ")" : lastError;
  }

  /**
   * The last error without the names of classes: the gate's rejection as {@link #sentence} says it;
   * an exception's message, with the class names of the exceptions nested in it taken out; an
   * exception without a message as {@code failed without a message}; null for null.
   */
  public static String withoutClassNames(String lastError) {
    if (lastError == null) {
      return null;
    }
    String rejected = rejection(lastError);
    if (rejected != null) {
      return rejected;
    }
    if (CLASS_ONLY.matcher(lastError).matches()) {
      return "failed without a message";
    }
    Matcher exception = EXCEPTION.matcher(lastError);
    String message = exception.matches() ? exception.group(2) : lastError;
    String stripped = NESTED.matcher(message).replaceAll("");
    return CLASS_ONLY.matcher(stripped).matches() || stripped.isBlank()
        ? "failed without a message"
        : stripped;
  }

  private static String rejection(String lastError) {
    Matcher rejected = REJECTED.matcher(lastError);
    if (!rejected.matches()) {
      return null;
    }
    return "Rejected by the rate limit: "
        + (rejected.group(1).equals("DISCARDED")
            ? "key " + rejected.group(2) + " had no budget, and its policy discards"
            : "the next slot of key "
                + rejected.group(2)
                + " ("
                + rejected.group(3)
                + ") lay beyond the policy's horizon");
  }
}
