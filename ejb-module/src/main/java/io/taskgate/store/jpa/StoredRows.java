package io.taskgate.store.jpa;

import io.taskgate.store.StoredTask;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** A task as the database keeps it: field lengths checked, instants to the microsecond. */
final class StoredRows {
  private StoredRows() {}

  /** {@code text} as the last_error and detail columns keep it. */
  static String errorText(String text) {
    if (text == null) {
      return null;
    }
    String clean = text.indexOf('\0') < 0 ? text : text.replace('\0', '\uFFFD');
    if (clean.length() <= TaskEntity.ERROR_LENGTH) {
      return clean;
    }
    int end = TaskEntity.ERROR_LENGTH;
    if (Character.isHighSurrogate(clean.charAt(end - 1))) {
      end--;
    }
    return clean.substring(0, end);
  }

  /** {@code task} exactly as the database will keep it; refuses what does not fit. */
  static StoredTask normalize(StoredTask task) {
    checkLength("type", task.type(), TaskEntity.NAME_LENGTH);
    checkLength("queue", task.queue(), TaskEntity.NAME_LENGTH);
    checkLength("taskKey", task.taskKey(), TaskEntity.NAME_LENGTH);
    checkLength("recurrence", task.recurrence(), TaskEntity.RECURRENCE_LENGTH);
    checkLength("owner", task.owner(), TaskEntity.OWNER_LENGTH);
    return new StoredTask(
        task.id(),
        task.type(),
        task.payload(),
        task.status(),
        task.queue(),
        task.taskKey(),
        micros(task.scheduledAt()),
        task.attempt(),
        errorText(task.lastError()),
        task.recurrence(),
        task.runs(),
        micros(task.createdAt()),
        micros(task.updatedAt()),
        task.version(),
        task.owner(),
        // a key longer than the column (keys are cut to 256 characters unless configured longer)
        // is not kept: the task is then not found by its key
        task.rateKey() == null || task.rateKey().length() > TaskEntity.RATE_KEY_LENGTH
            ? null
            : task.rateKey(),
        // a trace context that does not fit is dropped: the task runs in a trace of its own
        task.traceParent() == null || task.traceParent().length() > TaskEntity.TRACE_PARENT_LENGTH
            ? null
            : task.traceParent());
  }

  static Instant micros(Instant instant) {
    return instant.truncatedTo(ChronoUnit.MICROS);
  }

  static void checkLength(String field, String value, int max) {
    if (value != null && value.length() > max) {
      throw new IllegalArgumentException(
          field
              + " must be at most "
              + max
              + " characters, was "
              + value.length()
              + ": '"
              + value.substring(0, 40)
              + "…'");
    }
  }
}
