package io.taskgate.core.ratelimit;

import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Which tracked keys {@link KeyedRateLimiter#keys} returns, in which order, and how many at most.
 *
 * @param scope only keys of this scope (task type name); empty: every scope
 * @param keyContains only keys containing this text (case-sensitive); empty: any key
 * @param filter a further test every returned key passes (cheap: it runs once per matching key)
 * @param order the order of the returned keys
 * @param limit the most keys returned, from 0 to {@value #MAX_LIMIT}: the first {@code limit} in
 *     {@code order}
 */
public record KeyQuery(
    Optional<String> scope,
    Optional<String> keyContains,
    Predicate<KeyState> filter,
    Comparator<KeyState> order,
    int limit) {

  /** The most keys one query returns. */
  public static final int MAX_LIMIT = 100_000;

  /** Orders keys by scope, then key. */
  public static final Comparator<KeyState> BY_SCOPE_AND_KEY =
      Comparator.comparing(KeyState::scope).thenComparing(KeyState::key);

  /** Checks every part is present and the limit within bounds. */
  public KeyQuery {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(keyContains, "keyContains");
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(order, "order");
    if (limit < 0 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be from 0 to " + MAX_LIMIT + ", was " + limit);
    }
  }

  /** Every key, by scope and key, at most {@code limit}. */
  public static KeyQuery all(int limit) {
    return new KeyQuery(Optional.empty(), Optional.empty(), k -> true, BY_SCOPE_AND_KEY, limit);
  }

  /** Whether a key of {@code scopeName} named {@code key} passes the scope and text filters. */
  public boolean matches(String scopeName, String key) {
    return (scope.isEmpty() || scope.get().equals(scopeName))
        && (keyContains.isEmpty() || key.contains(keyContains.get()));
  }
}
