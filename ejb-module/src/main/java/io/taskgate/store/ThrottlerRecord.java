package io.taskgate.store;

import io.taskgate.api.ThrottlerKind;
import io.taskgate.core.throttle.JobKind;
import java.util.Objects;

/**
 * The stored definition of a semaphore or window.
 *
 * @param kind the kind of throttler (not MUTEX: mutexes need no definition)
 * @param id its id
 * @param limit a semaphore's max count; a window's limit
 * @param intervalMillis a window's interval; 0 for a semaphore
 * @param buckets a window's buckets; 0 for a semaphore
 * @param capacity a dynamic window's capacity; 0 for none
 * @param minLimit a rebalanced dynamic window's least limit; 0 otherwise
 * @param maxLimit a rebalanced dynamic window's most limit; 0 otherwise
 */
public record ThrottlerRecord(
    ThrottlerKind kind,
    String id,
    int limit,
    long intervalMillis,
    int buckets,
    int capacity,
    int minLimit,
    int maxLimit) {

  /** Checks what must be present. */
  public ThrottlerRecord {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(id, "id");
  }

  /** The definition as a change log shows it: {@code limit=5 interval=PT2S buckets=1}. */
  public String describe() {
    if (!JobKind.of(kind).windowed()) {
      return "maxCount=" + limit;
    }
    StringBuilder text =
        new StringBuilder()
            .append("limit=")
            .append(limit)
            .append(" interval=")
            .append(java.time.Duration.ofMillis(intervalMillis))
            .append(" buckets=")
            .append(buckets);
    if (capacity > 0) {
      text.append(" capacity=").append(capacity);
    }
    if (maxLimit > 0) {
      text.append(" minLimit=").append(minLimit).append(" maxLimit=").append(maxLimit);
    }
    return text.toString();
  }
}
