package io.taskgate.core.ratelimit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The answer to a {@link KeyQuery}: the first keys in the query's order and how many matched.
 *
 * @param keys at most the query's limit, in its order
 * @param matched how many tracked keys matched the query in all
 * @param supported false when the limiter cannot list its keys (then both are empty)
 */
public record KeySnapshot(List<KeyState> keys, int matched, boolean supported) {

  /** What a limiter that cannot list its keys answers. */
  public static final KeySnapshot UNSUPPORTED = new KeySnapshot(List.of(), 0, false);

  /** Copies the list. */
  public KeySnapshot {
    keys = List.copyOf(keys);
  }

  /**
   * Collects the first {@code limit} keys in an order from any number offered, in memory bounded by
   * the limit (a heap of the best so far): O(n log limit) for n keys. Not thread-safe.
   */
  public static final class Collector {
    private final KeyQuery query;
    private final Comparator<KeyState> order;
    private final PriorityQueue<KeyState> worstFirst;
    private int matched;

    /** A collector for {@code query}. */
    public Collector(KeyQuery query) {
      this.query = query;
      this.order = query.order();
      this.worstFirst = new PriorityQueue<>(Math.min(query.limit(), 1024) + 1, order.reversed());
    }

    /** Offers a key that passed the scope and text filters; the query's filter is applied here. */
    public void offer(KeyState state) {
      if (!query.filter().test(state)) {
        return;
      }
      matched++;
      if (query.limit() == 0) {
        return;
      }
      if (worstFirst.size() < query.limit()) {
        worstFirst.add(state);
      } else if (order.compare(state, worstFirst.peek()) < 0) {
        worstFirst.poll();
        worstFirst.add(state);
      }
    }

    /** The snapshot of what was offered. */
    public KeySnapshot snapshot() {
      List<KeyState> keys = new ArrayList<>(worstFirst);
      keys.sort(order);
      return new KeySnapshot(keys, matched, true);
    }
  }
}
