package io.taskgate.engine.throttle.ratelimit;

import io.taskgate.engine.throttle.PushBack;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last upstream push-back of each key on this instance, for the views: kept for {@link #KEEP},
 * at most {@link #MAX_KEYS} keys (the oldest forgotten first).
 */
@ApplicationScoped
public class PushBacks {
  /** How long a push-back is shown. */
  public static final Duration KEEP = Duration.ofHours(1);

  /** The most keys whose push-back is kept. */
  public static final int MAX_KEYS = 1_000;

  private final Map<String, PushBack> last =
      new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PushBack> eldest) {
          return size() > MAX_KEYS;
        }
      };

  /** Key {@code key} of {@code scope} was pushed back. */
  public synchronized void record(String scope, String key, PushBack pushBack) {
    String id = scope + '\u0000' + key;
    last.remove(id); // the latest goes last, so that the oldest leaves first
    last.put(id, pushBack);
  }

  /** The last push-back of {@code key} in {@code scope} within {@link #KEEP}; null if none. */
  public synchronized PushBack last(String scope, String key, Instant now) {
    if (last.isEmpty()) {
      return null;
    }
    PushBack pushBack = last.get(scope + '\u0000' + key);
    return pushBack == null || pushBack.at().plus(KEEP).isBefore(now) ? null : pushBack;
  }
}
