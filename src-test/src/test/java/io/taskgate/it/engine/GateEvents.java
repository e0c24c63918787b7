package io.taskgate.it.engine;

import io.taskgate.api.RateLimitDeferred;
import io.taskgate.api.RateLimitRejected;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps the rate-limit monitoring events the engine fires, for the tests to read. */
@ApplicationScoped
public class GateEvents {
  private final List<RateLimitDeferred> deferred = new CopyOnWriteArrayList<>();
  private final List<RateLimitRejected> rejected = new CopyOnWriteArrayList<>();

  void onDeferred(@Observes RateLimitDeferred event) {
    deferred.add(event);
  }

  void onRejected(@Observes RateLimitRejected event) {
    rejected.add(event);
  }

  /** The deferral events of {@code key}, oldest first. */
  public List<RateLimitDeferred> deferred(String key) {
    return deferred.stream().filter(e -> e.key().equals(key)).toList();
  }

  /** The rejection events of {@code key}, oldest first. */
  public List<RateLimitRejected> rejected(String key) {
    return rejected.stream().filter(e -> e.key().equals(key)).toList();
  }
}
