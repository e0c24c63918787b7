package io.taskgate.it.engine;

import io.taskgate.api.Handler;
import io.taskgate.api.RateLimit;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * A task whose rate-limit key its handler derives ({@code rateLimitKey(T)} overridden), through a
 * bean the container injects into the handler: the key is only right on a handler instance the
 * container made.
 */
public final class HandlerKeyedTasks {
  private HandlerKeyedTasks() {}

  /** What the handler makes of {@link Routed#route}: a key, or null, empty, a throw, 300 chars. */
  public record Routed(String route, String id) implements Task {}

  /** The prefix of the keys: a bean, injected into the handler. */
  @ApplicationScoped
  public static class Tenants {
    /** The key of {@code route}. */
    public String keyOf(String route) {
      return "tenant:" + route;
    }
  }

  /** 1 per 10 minutes per key: a second task of a key parks. */
  @TaskHandler
  @RateLimit(permits = 1, period = "PT10M")
  public static class RoutedHandler implements Handler<Routed> {
    @Inject Probe probe;
    @Inject Tenants tenants;

    @Override
    public void handle(Routed task, TaskContext context) {
      probe.record(task.id(), "ran");
    }

    @Override
    public String rateLimitKey(Routed task) {
      return switch (task.route()) {
        case "null" -> null;
        case "empty" -> "";
        case "throw" -> throw new IllegalStateException("no key for " + task.id());
        case "long" -> "k".repeat(300);
        default -> tenants.keyOf(task.route());
      };
    }
  }
}
