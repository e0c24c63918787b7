package io.taskgate.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Records what one class logs at {@code level} and above while open. */
final class LogCapture extends Handler implements AutoCloseable {
  private final Logger logger;
  private final Level previous;
  private final List<LogRecord> records = new ArrayList<>();

  LogCapture(Class<?> source, Level level) {
    logger = Logger.getLogger(source.getName());
    previous = logger.getLevel();
    logger.setLevel(level);
    setLevel(level);
    logger.addHandler(this);
  }

  @Override
  public synchronized void publish(LogRecord record) {
    if (isLoggable(record)) {
      records.add(record);
    }
  }

  /** The messages logged at exactly {@code level}, formatted. */
  synchronized List<String> messages(Level level) {
    return records.stream()
        .filter(r -> r.getLevel().equals(level))
        .map(r -> new java.util.logging.SimpleFormatter().formatMessage(r))
        .toList();
  }

  @Override
  public void flush() {}

  @Override
  public void close() {
    logger.removeHandler(this);
    logger.setLevel(previous);
  }
}
