package io.taskgate.engine.cluster.grid;

import com.hazelcast.cluster.Member;
import com.hazelcast.topic.ITopic;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Freed throttles told across the cluster: a member announces each resource it frees on a grid
 * topic, and every other member hands it to its listener, which wakes the first task waiting for it
 * there. The grid calls back on a thread of its own; the listener is called on one thread of the
 * application's ({@code threads}), in the order the resources came.
 */
final class GridWakeUps {
  private static final Logger LOG = Logger.getLogger(GridWakeUps.class.getName());

  private final ITopic<String> topic;
  private final UUID self;
  private final LinkedBlockingQueue<Set<String>> freed = new LinkedBlockingQueue<>();
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

  /** Tells this member's listener that {@code resources} are free (a release made late). */
  void freedHere(Set<String> resources) {
    freed.offer(resources);
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
                  freed.offer(Set.of(message.getMessageObject()));
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
                  listener.accept(freed.take());
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
