package io.taskgate.engine.limiter;

import io.taskgate.api.RateLimitCost;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.Set;

/**
 * How many permits a {@link io.taskgate.api.RateLimited} call takes: one, or the value of its
 * {@link RateLimitCost} parameter.
 */
public interface CallCost {

  /** The permits a call with {@code args} takes, checked against {@code limit} (its most). */
  int of(Object[] args, NamedLimiter limiter);

  /** Every call takes one permit. */
  CallCost ONE = (args, limiter) -> 1;

  /** The types a cost parameter may have. */
  Set<Class<?>> TYPES =
      Set.of(int.class, long.class, short.class, Integer.class, Long.class, Short.class);

  /**
   * The cost source {@code method} declares.
   *
   * @throws IllegalArgumentException naming the method: two cost parameters, or one of a type that
   *     is not a whole number
   */
  static CallCost of(Method method) {
    Parameter[] parameters = method.getParameters();
    int found = -1;
    for (int i = 0; i < parameters.length; i++) {
      if (!parameters[i].isAnnotationPresent(RateLimitCost.class)) {
        continue;
      }
      if (found >= 0) {
        throw new IllegalArgumentException(
            "@RateLimited method "
                + LimitedMethod.describe(method)
                + " has more than one @RateLimitCost parameter; keep one");
      }
      if (!TYPES.contains(parameters[i].getType())) {
        throw new IllegalArgumentException(
            "@RateLimited method "
                + LimitedMethod.describe(method)
                + ": its @RateLimitCost parameter "
                + parameters[i].getName()
                + " is a "
                + parameters[i].getType().getName()
                + ", not an int, long or short");
      }
      found = i;
    }
    if (found < 0) {
      return ONE;
    }
    int index = found;
    String name = parameters[index].getName();
    String described = LimitedMethod.describe(method);
    return (args, limiter) -> {
      Object value = args[index];
      long cost = value == null ? 0 : ((Number) value).longValue();
      int most = limiter.permitLimit();
      if (value == null || cost < 1 || cost > most) {
        throw new IllegalArgumentException(
            "@RateLimited method "
                + described
                + ": its @RateLimitCost parameter "
                + name
                + " must be between 1 and "
                + most
                + ", the most a call of limiter "
                + limiter.name()
                + " may take"
                + (value != null && cost > most ? " (a call costing more could never pass)" : "")
                + ", was "
                + value);
      }
      return (int) cost;
    };
  }
}
