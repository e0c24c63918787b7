package io.taskgate.engine.event;

import io.taskgate.store.HistoryStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Optional;

/**
 * Keeps this instance's {@link TaskHistory} in the database, where every instance sharing it reads
 * the others': at each heartbeat it writes the counts of the minutes that changed since the last
 * (the current minute and the one before), and once an hour removes the rows older than {@link
 * #KEPT_MINUTES}. Its first call reads back what this instance (the same identity, before a
 * restart) wrote in the minutes memory keeps. Counts of the seconds since the last write are lost
 * if the process dies.
 */
@ApplicationScoped
public class HistoryPublisher {
  /** How many minutes the database keeps, the current one included. */
  public static final int KEPT_MINUTES = 24 * 60;

  private final TaskHistory history;
  private final HistoryStore store;

  private boolean restored;
  private long published; // the minute of the last write; minutes before it are written
  private long pruned = Long.MIN_VALUE;

  /** For the container's proxy. */
  HistoryPublisher() {
    this(null, null);
  }

  @Inject
  public HistoryPublisher(TaskHistory history, HistoryStore store) {
    this.history = history;
    this.store = store;
  }

  /**
   * Writes the minutes of {@code instance} (this one) that changed since the last call, up to
   * {@code now}'s; the first call reads its earlier counts back first. A failure (the database
   * down) propagates, and the next call writes what this one did not.
   */
  public synchronized void publish(String instance, Instant now) {
    long minute = TaskHistory.minuteOf(now);
    long oldest = minute - TaskHistory.RETAINED_MINUTES + 1;
    if (!restored) {
      history.restore(store.read(oldest, minute, Optional.of(instance)));
      restored = true;
      published = oldest + 1;
    }
    // a count may land in the minute before the last write's, stamped just before it turned
    store.save(history.records(instance, Math.max(oldest, published - 1), minute));
    published = minute;
    if (pruned <= minute - 60) {
      store.deleteBefore(minute - KEPT_MINUTES + 1);
      pruned = minute;
    }
  }
}
