package io.taskgate.engine.throttle.concurrency;

import io.taskgate.api.TaskTransition;
import io.taskgate.core.throttle.LocalThrottlerState;
import io.taskgate.core.throttle.ThrottlerState;
import io.taskgate.engine.event.EngineEvents;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.Payloads;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleProvider;
import io.taskgate.engine.throttle.ThrottleRow;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.store.TaskQueries;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The concurrency limits ({@link io.taskgate.api.Concurrency}) as a kind of throttle: a {@link
 * ConcurrencyThrottle} on each task type that declares one, the places held per key (in this
 * instance's memory, or in the data grid's state when the instances share one), and the rows the
 * views list. A place still held when its task reaches a final state (the instance that ran it
 * died) is given back then.
 */
@ApplicationScoped
public class ConcurrencyProvider implements ThrottleProvider {
  private final Throttles throttles;
  private final EngineEvents events;
  private final Map<String, ConcurrencyLimit> limits = new ConcurrentHashMap<>();
  private final AtomicBoolean subscribed = new AtomicBoolean();
  private volatile ThrottlerState state = new LocalThrottlerState();

  /** For the CDI proxy. */
  protected ConcurrencyProvider() {
    this(null, null);
  }

  @Inject
  public ConcurrencyProvider(Throttles throttles, EngineEvents events) {
    this.throttles = throttles;
    this.events = events;
  }

  @Override
  public List<? extends Throttle> throttlesOf(HandlerInfo handler) {
    return limitOf(handler)
        .map(limit -> List.of(new ConcurrencyThrottle(limit, () -> state)))
        .orElse(List.of());
  }

  /** Learns every task type's limit before any task runs, so that the views list them all. */
  @Override
  public int start(Collection<HandlerInfo> handlers, TaskQueries queries, Payloads payloads) {
    handlers.forEach(this::limitOf);
    return 0;
  }

  @Override
  public void useState(ThrottlerState state) {
    this.state = state;
  }

  private Optional<ConcurrencyLimit> limitOf(HandlerInfo handler) {
    Optional<ConcurrencyLimit> limit = ConcurrencyLimit.of(handler);
    limit.ifPresent(
        l -> {
          limits.put(l.typeName(), l);
          subscribe();
        });
    return limit;
  }

  /**
   * Gives back the places of tasks of a limited type that reached a final state, once subscribed
   * (the tasks of other types cost nothing: on the grid, each release is a call).
   */
  private void subscribe() {
    if (events != null && subscribed.compareAndSet(false, true)) {
      events.subscribe(
          TaskTransition.class,
          t -> {
            if (t.to() != null && t.to().terminal() && limits.containsKey(t.taskType())) {
              throttles.freed(state.releaseAll(t.taskId().toString()));
            }
          });
    }
  }

  /** One row per task type with a limit: its keys held now, each with its running tasks. */
  @Override
  public List<ThrottleRow> rows() {
    Map<String, Map<String, Set<String>>> holders = state.holders();
    List<ThrottleRow> rows = new ArrayList<>();
    for (ConcurrencyLimit limit : new TreeMap<>(limits).values()) {
      List<ThrottleRow.Held> held = new ArrayList<>();
      new TreeMap<>(holders)
          .forEach(
              (resource, owners) -> {
                if (resource.startsWith(limit.prefix())) {
                  held.add(
                      new ThrottleRow.Held(
                          resource, resource.substring(limit.prefix().length()), owners.keySet()));
                }
              });
      rows.add(
          new ThrottleRow(
              ConcurrencyLimit.KIND, limit.id(), limit.limit(), held, List.of(limit.typeName())));
    }
    return rows;
  }
}
