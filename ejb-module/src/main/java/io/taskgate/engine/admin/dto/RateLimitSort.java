package io.taskgate.engine.admin.dto;

import io.taskgate.engine.admin.ThrottleViews;
import java.util.Locale;
import java.util.Optional;

/** How the rows of {@link ThrottleViews#rateLimits} are ordered. */
public enum RateLimitSort {
  /** By task type, then key (default ascending). */
  KEY("key", false),
  /** By parked tasks (default descending: the most parked first). */
  PARKED("parked", true),
  /** By the key's next free slot, a key with budget counting as now (default descending). */
  NEXT_SLOT("nextSlot", true);

  private final String parameter;
  private final boolean descendingByDefault;

  RateLimitSort(String parameter, boolean descendingByDefault) {
    this.parameter = parameter;
    this.descendingByDefault = descendingByDefault;
  }

  /** Its name in the API: {@code key}, {@code parked}, {@code nextSlot}. */
  public String parameter() {
    return parameter;
  }

  /** Whether it sorts descending unless told otherwise. */
  public boolean descendingByDefault() {
    return descendingByDefault;
  }

  /** The sort named {@code text} (its API name, any case), if any. */
  public static Optional<RateLimitSort> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    String wanted = text.strip().toLowerCase(Locale.ROOT);
    for (RateLimitSort sort : values()) {
      if (sort.parameter.toLowerCase(Locale.ROOT).equals(wanted)) {
        return Optional.of(sort);
      }
    }
    return Optional.empty();
  }
}
