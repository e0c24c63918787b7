package io.taskgate.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Records what one class logs at {@code level} and above while open, instead of printing it: a test
 * that provokes a logged failure asserts on the record, and the build's output stays free of the
 * stack traces it expects.
 */
public final class LogCapture extends Handler implements AutoCloseable {
  private final Logger logger;
  private final Level previous;
  private final boolean previousUseParentHandlers;
  private final List<LogRecord> records = new ArrayList<>();

  public LogCapture(Class<?> source, Level level) {
    logger = Logger.getLogger(source.getName());
    previous = logger.getLevel();
    previousUseParentHandlers = logger.getUseParentHandlers();
    logger.setLevel(level);
    setLevel(level);
    logger.addHandler(this);
    logger.setUseParentHandlers(false);
  }

  @Override
  public synchronized void publish(LogRecord record) {
    if (isLoggable(record)) {
      records.add(record);
    }
  }

  /** The messages logged at exactly {@code level}, formatted. */
  public synchronized List<String> messages(Level level) {
    return records.stream()
        .filter(r -> r.getLevel().equals(level))
        .map(r -> new SimpleFormatter().formatMessage(r))
        .toList();
  }

  /** The exceptions logged with the records at exactly {@code level}, in order. */
  public synchronized List<Throwable> thrown(Level level) {
    return records.stream()
        .filter(r -> r.getLevel().equals(level) && r.getThrown() != null)
        .map(LogRecord::getThrown)
        .toList();
  }

  @Override
  public void flush() {}

  @Override
  public void close() {
    logger.setUseParentHandlers(previousUseParentHandlers);
    logger.removeHandler(this);
    logger.setLevel(previous);
  }
}
