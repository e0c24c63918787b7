package io.taskgate.engine.event;

import io.taskgate.api.RateLimitDeferred;
import io.taskgate.api.RateLimitFailOpen;
import io.taskgate.api.RateLimitRejected;
import io.taskgate.api.TaskTransition;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The engine's one event channel. Whatever reports (the store's writes through {@link
 * TaskTransitions}, the throttles, the {@code @RateLimited} limiters) publishes here, and whatever
 * listens subscribes here, by event type:
 *
 * <ul>
 *   <li>the metrics: the {@link TaskHistory} counts every {@link Counted};
 *   <li>the application: the CDI observers of {@link TaskTransition}, {@link RateLimitDeferred},
 *       {@link RateLimitFailOpen} and {@link RateLimitRejected} get those events from here;
 *   <li>the views and the throttles: in-process subscribers ({@link #subscribe}), such as the
 *       monitoring stream or a throttle woken by the end of a task.
 * </ul>
 *
 * <p>A subscriber runs on the publisher's thread (a worker, a store writer's caller) and must
 * return at once. One that throws is logged and ignored: reporting never changes what happens to a
 * task. A publisher whose event costs something to build asks {@link #wants} first.
 */
@ApplicationScoped
public class EngineEvents {
  private static final Logger LOG = Logger.getLogger(EngineEvents.class.getName());

  /** The events of the API, fired to their CDI observers. */
  static final List<Class<?>> OBSERVABLE =
      List.of(
          TaskTransition.class,
          RateLimitDeferred.class,
          RateLimitFailOpen.class,
          RateLimitRejected.class);

  private final Map<Class<?>, List<Consumer<Object>>> subscribers = new ConcurrentHashMap<>();

  /** A channel with no subscriber yet: outside the container, and the container's proxy. */
  public EngineEvents() {}

  /**
   * The container's channel: the {@code history} counts, and the events of the API go to their CDI
   * observers. Whether a {@link TaskTransition} has any observer is resolved once, here, so that an
   * unobserved engine does not even build one; the rare rate-limit events are always fired.
   */
  @Inject
  EngineEvents(TaskHistory history, Event<Object> cdi, BeanManager beanManager) {
    subscribe(Counted.class, history::count);
    TaskTransition sample =
        new TaskTransition(null, "", "", null, null, Instant.EPOCH, 0, null, null);
    for (Class<?> type : OBSERVABLE) {
      if (type != TaskTransition.class || !beanManager.resolveObserverMethods(sample).isEmpty()) {
        toObservers(type, cdi);
      }
    }
  }

  private <T> void toObservers(Class<T> type, Event<Object> cdi) {
    Event<T> events = cdi.select(type);
    subscribe(type, events::fire);
  }

  /** Adds {@code subscriber} of the events of exactly {@code type}; returns what removes it. */
  public <T> Runnable subscribe(Class<T> type, Consumer<? super T> subscriber) {
    Consumer<Object> typed = event -> subscriber.accept(type.cast(event));
    List<Consumer<Object>> list = of(type);
    list.add(typed);
    return () -> list.remove(typed);
  }

  /** Whether anyone subscribes to the events of {@code type}. */
  public boolean wants(Class<?> type) {
    List<Consumer<Object>> list = subscribers.get(type);
    return list != null && !list.isEmpty();
  }

  /** Tells the subscribers of {@code event}'s class, in the order they subscribed. */
  public void publish(Object event) {
    List<Consumer<Object>> list = subscribers.get(event.getClass());
    if (list == null) {
      return;
    }
    for (Consumer<Object> subscriber : list) {
      try {
        subscriber.accept(event);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "A subscriber of " + event + " threw; ignored", e);
      }
    }
  }

  private List<Consumer<Object>> of(Class<?> type) {
    return subscribers.computeIfAbsent(type, t -> new CopyOnWriteArrayList<>());
  }
}
