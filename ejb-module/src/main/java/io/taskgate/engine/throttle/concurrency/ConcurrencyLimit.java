package io.taskgate.engine.throttle.concurrency;

import io.taskgate.api.Concurrency;
import io.taskgate.api.SettingRanges;
import io.taskgate.core.throttle.ResourceTemplate;
import io.taskgate.engine.handler.HandlerInfo;
import java.util.Optional;

/**
 * A task type's {@link Concurrency}, checked against its task type: at most {@code limit} of its
 * tasks with one key run at once. Each key is a resource of its own, named {@code concurrency:<task
 * type>:<key>}. Immutable.
 *
 * @param typeName the task type
 * @param limit how many of one key run at once
 * @param key the key template; null for one key over every task of the type
 */
record ConcurrencyLimit(String typeName, int limit, ResourceTemplate key) {
  /** The kind, as the views spell it. */
  static final String KIND = "concurrency";

  /** The key of a limit without a key template. */
  static final String ALL = "all";

  /**
   * {@code handler}'s limit; empty when it declares none.
   *
   * @throws IllegalArgumentException naming the option and its value, if the limit is out of range
   *     or the key names nothing the task has
   */
  static Optional<ConcurrencyLimit> of(HandlerInfo handler) {
    Concurrency declared = handler.beanClass().getAnnotation(Concurrency.class);
    if (declared == null) {
      return Optional.empty();
    }
    int limit = SettingRanges.count("@Concurrency limit", declared.limit());
    ResourceTemplate key = null;
    if (!declared.key().isEmpty()) {
      try {
        key = ResourceTemplate.parse(declared.key(), handler.taskType());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "@Concurrency key '" + declared.key() + "': " + e.getMessage(), e);
      }
    }
    return Optional.of(new ConcurrencyLimit(handler.typeName(), limit, key));
  }

  /** The throttle's name: the kind and the key template. */
  String name() {
    return KIND + ":" + (key == null ? ALL : key.text());
  }

  /** The id the views list it by: the task type, and the key template when it has one. */
  String id() {
    return key == null ? typeName : typeName + ":" + key.text();
  }

  /** The prefix of the resources of its keys. */
  String prefix() {
    return KIND + ":" + typeName + ":";
  }

  /**
   * The resource of {@code task}'s key.
   *
   * @throws IllegalArgumentException if the key cannot be read from the task
   */
  String resource(Object task) {
    return prefix() + (key == null ? ALL : key.fill(task));
  }
}
