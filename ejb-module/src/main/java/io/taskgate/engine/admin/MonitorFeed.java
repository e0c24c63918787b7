package io.taskgate.engine.admin;

import io.taskgate.api.RateLimitDeferred;
import io.taskgate.api.RateLimitFailOpen;
import io.taskgate.api.RateLimitRejected;
import io.taskgate.api.TaskTransition;
import io.taskgate.engine.admin.dto.MonitorEvent;
import io.taskgate.engine.event.EngineEvents;
import jakarta.enterprise.context.ApplicationScoped;
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
 * RateLimitRejected} events, and every {@link TaskTransition}, all read off the {@link
 * EngineEvents} channel while anyone subscribes here (transitions are only built while someone
 * listens, so an unwatched engine pays nothing for them). Subscribers are called on the thread of
 * the event (a worker, a store writer's caller): they must hand off and return at once.
 */
@ApplicationScoped
public class MonitorFeed {
  private static final Logger LOG = Logger.getLogger(MonitorFeed.class.getName());

  private final EngineEvents events;
  private final InstantSource clock;
  private final List<Consumer<MonitorEvent>> subscribers = new CopyOnWriteArrayList<>();
  private List<Runnable> subscriptions = List.of(); // guarded by this

  /** For the CDI proxy. */
  protected MonitorFeed() {
    this(null, null);
  }

  @Inject
  public MonitorFeed(EngineEvents events, InstantSource clock) {
    this.events = events;
    this.clock = clock;
  }

  /** Adds a subscriber; returns what removes it. */
  public synchronized Runnable subscribe(Consumer<MonitorEvent> subscriber) {
    subscribers.add(subscriber);
    if (subscriptions.isEmpty()) {
      subscriptions =
          List.of(
              events.subscribe(
                  TaskTransition.class,
                  t -> publish(new MonitorEvent(MonitorEvent.TRANSITION, t.at(), t))),
              events.subscribe(
                  RateLimitDeferred.class,
                  e -> publish(new MonitorEvent(MonitorEvent.DEFERRED, now(), e))),
              events.subscribe(
                  RateLimitFailOpen.class,
                  e -> publish(new MonitorEvent(MonitorEvent.FAIL_OPEN, now(), e))),
              events.subscribe(
                  RateLimitRejected.class,
                  e -> publish(new MonitorEvent(MonitorEvent.REJECTED, now(), e))));
    }
    return () -> unsubscribe(subscriber);
  }

  private synchronized void unsubscribe(Consumer<MonitorEvent> subscriber) {
    subscribers.remove(subscriber);
    if (subscribers.isEmpty()) {
      subscriptions.forEach(Runnable::run);
      subscriptions = List.of();
    }
  }

  /** How many subscribers there are. */
  public int subscribers() {
    return subscribers.size();
  }

  private Instant now() {
    return clock.instant();
  }

  private void publish(MonitorEvent event) {
    for (Consumer<MonitorEvent> subscriber : subscribers) {
      try {
        subscriber.accept(event);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "A subscriber of the monitoring stream threw; ignored", e);
      }
    }
  }
}
