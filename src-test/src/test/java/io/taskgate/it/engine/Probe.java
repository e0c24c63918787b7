package io.taskgate.it.engine;

import io.taskgate.it.Await;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the test handlers did, by test id: "handle", "started", "completed", "retry:2", "error:…".
 */
@ApplicationScoped
public class Probe {
  private final Map<String, List<String>> events = new ConcurrentHashMap<>();

  public void record(String id, String event) {
    events.computeIfAbsent(id, k -> new ArrayList<>());
    synchronized (events.get(id)) {
      events.get(id).add(event);
    }
  }

  public List<String> events(String id) {
    List<String> list = events.getOrDefault(id, List.of());
    synchronized (list) {
      return List.copyOf(list);
    }
  }

  public long count(String id, String event) {
    return events(id).stream().filter(e -> e.equals(event)).count();
  }

  /** Waits until {@code id} has recorded {@code event} at least {@code times} times. */
  public void await(String id, String event, int times, Duration timeout)
      throws InterruptedException {
    Await.until(
        () -> count(id, event),
        seen -> seen >= times,
        timeout,
        seen ->
            id
                + " recorded "
                + event
                + " "
                + seen
                + " of "
                + times
                + " times; events: "
                + events(id));
  }
}
