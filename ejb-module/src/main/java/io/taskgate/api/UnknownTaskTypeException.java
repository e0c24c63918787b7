package io.taskgate.api;

import java.util.List;

/** A task type name that no registered handler runs, or a simple name two task types share. */
public class UnknownTaskTypeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String type;
  private final List<String> candidates;
  private final List<String> known;

  public UnknownTaskTypeException(String type, List<String> candidates, List<String> known) {
    super(message(type, candidates, known));
    this.type = type;
    this.candidates = List.copyOf(candidates);
    this.known = List.copyOf(known);
  }

  /** The name asked for. */
  public String type() {
    return type;
  }

  /** The task types the name matched when it is ambiguous; empty when it matched none. */
  public List<String> candidates() {
    return candidates;
  }

  /** Every task type a handler runs, sorted. */
  public List<String> known() {
    return known;
  }

  /** Whether the name matched two or more task types. */
  public boolean ambiguous() {
    return !candidates.isEmpty();
  }

  private static String message(String type, List<String> candidates, List<String> known) {
    if (!candidates.isEmpty()) {
      return "Task type '"
          + type
          + "' is ambiguous: it is the simple name of "
          + String.join(", ", candidates)
          + "; give the full class name";
    }
    return "No handler runs task type '"
        + type
        + "'; known task types: "
        + (known.isEmpty() ? "(none)" : String.join(", ", known));
  }
}
