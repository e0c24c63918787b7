package io.taskgate.engine.cluster.grid;

import com.hazelcast.cluster.Member;
import com.hazelcast.topic.ITopic;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Freed throttles told across the cluster: a member announces each resource it frees on a grid
 * topic, and every other member hands it to its listener, which wakes the first task waiting for it
 * there. A semaphore that grew is one message ({@code +<permits> <resource>}) whatever the growth,
 * handed to the grown listener, which wakes at most that many of the tasks waiting there. The grid
 * calls back on a thread of its own; the listeners are called on one thread of the application's
 * ({@code threads}), in the order the messages came.
 */
final class GridWakeUps {
  private static final Logger LOG = Logger.getLogger(GridWakeUps.class.getName());

  private final ITopic<String> topic;
  private final UUID self;

  /** A message taken off the topic: resources freed, or a semaphore grown by {@code permits}. */
  record Message(Set<String> freed, String grown, int permits) {}

  private static final char GROWN = '+';

  private final LinkedBlockingQueue<Message> freed = new LinkedBlockingQueue<>();
  private volatile BiConsumer<String, Integer> onGrown = (resource, permits) -> {};
  private volatile boolean closed;
  private UUID registration;
  private Thread thread;

  GridWakeUps(ITopic<String> topic, UUID self) {
    this.topic = topic;
    this.self = self;
  }

  /** Tells the other members that a permit of {@code resource} is free. */
  void announce(String resource) {
    try {
      topic.publishAsync(resource);
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Taskgate could not tell the other instances that "
              + resource
              + " is free; their waiting tasks look again at their recheck",
          e);
    }
  }

  /** Tells the other members that semaphore {@code resource} grew by {@code permits}. */
  void announceGrown(String resource, int permits) {
    announce(GROWN + Integer.toString(permits) + " " + resource);
  }

  /** Who is told that a semaphore grew on another member. */
  void onGrown(BiConsumer<String, Integer> listener) {
    this.onGrown = listener;
  }

  /** Tells this member's listener that {@code resources} are free (a release made late). */
  void freedHere(Set<String> resources) {
    freed.offer(new Message(resources, null, 0));
  }

  /** The message {@code text} read from the topic: a freed resource or a grown semaphore. */
  static Optional<Message> parse(String text) {
    if (text.isEmpty() || text.charAt(0) != GROWN) {
      return Optional.of(new Message(Set.of(text), null, 0));
    }
    int space = text.indexOf(' ');
    try {
      int permits = Integer.parseInt(text.substring(1, space));
      return permits > 0
          ? Optional.of(new Message(Set.of(), text.substring(space + 1), permits))
          : Optional.empty();
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Starts telling {@code listener}, on a thread {@code threads} makes; once. */
  synchronized void listen(Consumer<Set<String>> listener, ThreadFactory threads) {
    if (thread != null || closed) {
      return;
    }
    try {
      registration =
          topic.addMessageListener(
              message -> {
                Member from = message.getPublishingMember();
                if (from == null || !self.equals(from.getUuid())) {
                  parse(message.getMessageObject()).ifPresent(freed::offer);
                }
              });
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Taskgate could not listen for throttles freed on other instances; tasks waiting here"
              + " for one look again at their recheck",
          e);
    }
    thread =
        threads.newThread(
            () -> {
              while (!closed) {
                try {
                  Message next = freed.take();
                  if (next.grown() != null) {
                    onGrown.accept(next.grown(), next.permits());
                  } else {
                    listener.accept(next.freed());
                  }
                } catch (InterruptedException e) {
                  return;
                } catch (RuntimeException e) {
                  LOG.log(
                      Level.WARNING, "Taskgate could not wake a task waiting for a throttle", e);
                }
              }
            });
    thread.setName("taskgate-throttler-wake-ups");
    thread.setDaemon(true);
    thread.start();
  }

  /** Stops listening. */
  synchronized void close() {
    closed = true;
    if (registration != null) {
      try {
        topic.removeMessageListener(registration);
      } catch (RuntimeException e) {
        LOG.log(Level.FINE, "Taskgate could not stop listening to freed throttles", e);
      }
    }
    if (thread != null) {
      thread.interrupt();
    }
  }
}
