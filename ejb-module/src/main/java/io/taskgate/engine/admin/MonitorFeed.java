package io.taskgate.engine.admin;

import io.taskgate.api.RateLimitDeferred;
import io.taskgate.api.RateLimitFailOpen;
import io.taskgate.api.RateLimitRejected;
import io.taskgate.api.TaskTransition;
import io.taskgate.engine.admin.dto.MonitorEvent;
import io.taskgate.engine.event.TaskTransitions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The monitoring stream in one place, for subscribers such as the server-sent events of the REST
 * API: the gate's {@link RateLimitDeferred} (aggregated), {@link RateLimitFailOpen} and {@link
 * RateLimitRejected} events, and every {@link TaskTransition}. Transitions are only produced while
 * someone subscribes, so an unwatched engine pays nothing for them. Subscribers are called on the
 * thread of the event (a worker, a store writer's caller): they must hand off and return at once.
 */
@ApplicationScoped
public class MonitorFeed {
  private static final Logger LOG = Logger.getLogger(MonitorFeed.class.getName());

  @Inject TaskTransitions transitions;
  @Inject InstantSource clock;

  private final List<Consumer<MonitorEvent>> subscribers = new CopyOnWriteArrayList<>();
  private Runnable transitionSubscription; // guarded by this

  /** Adds a subscriber; returns what removes it. */
  public synchronized Runnable subscribe(Consumer<MonitorEvent> subscriber) {
    subscribers.add(subscriber);
    if (transitionSubscription == null) {
      transitionSubscription =
          transitions.subscribe(t -> publish(new MonitorEvent(MonitorEvent.TRANSITION, t.at(), t)));
    }
    return () -> unsubscribe(subscriber);
  }

  private synchronized void unsubscribe(Consumer<MonitorEvent> subscriber) {
    subscribers.remove(subscriber);
    if (subscribers.isEmpty() && transitionSubscription != null) {
      transitionSubscription.run();
      transitionSubscription = null;
    }
  }

  /** How many subscribers there are. */
  public int subscribers() {
    return subscribers.size();
  }

  void onDeferred(@Observes RateLimitDeferred event) {
    if (!subscribers.isEmpty()) {
      publish(new MonitorEvent(MonitorEvent.DEFERRED, now(), event));
    }
  }

  void onFailOpen(@Observes RateLimitFailOpen event) {
    if (!subscribers.isEmpty()) {
      publish(new MonitorEvent(MonitorEvent.FAIL_OPEN, now(), event));
    }
  }

  void onRejected(@Observes RateLimitRejected event) {
    if (!subscribers.isEmpty()) {
      publish(new MonitorEvent(MonitorEvent.REJECTED, now(), event));
    }
  }

  private Instant now() {
    return clock.instant();
  }

  void publish(MonitorEvent event) {
    for (Consumer<MonitorEvent> subscriber : subscribers) {
      try {
        subscriber.accept(event);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "A subscriber of the monitoring stream threw; ignored", e);
      }
    }
  }
}
