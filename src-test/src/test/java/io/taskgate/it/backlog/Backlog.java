package io.taskgate.it.backlog;

import io.taskgate.api.Handler;
import io.taskgate.api.RateLimit;
import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskDispatcher;
import io.taskgate.api.TaskHandler;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.spi.ConfigSource;

/** A task type paced at one every 0.3 s, and a resource that dispatches many of one key. */
public final class Backlog {
  private Backlog() {}

  /** The key every backlog task has. */
  public static final String KEY = "backlog";

  /** One task of the backlog. */
  public record Item(String key, int n) implements RateLimitedTask {
    @Override
    public String rateLimitKey() {
      return key;
    }
  }

  /** 10 per 3 s, one at a time: 10,000 tasks take 50 minutes of slots. */
  @TaskHandler
  @RateLimit(permits = 10, period = "PT3S", burst = 1)
  public static class ItemHandler implements Handler<Item> {
    @Override
    public void handle(Item task, TaskContext context) {}
  }

  /** {@code POST /api/backlog?n=}: dispatches {@code n} tasks of {@link #KEY} in one call. */
  @Path("backlog")
  @RequestScoped
  public static class BacklogResource {
    @Inject TaskDispatcher dispatcher;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject dispatch(@QueryParam("n") int n) {
      List<Item> items = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        items.add(new Item(KEY, i));
      }
      return Json.createObjectBuilder()
          .add("dispatched", dispatcher.dispatchAll(items).size())
          .build();
    }
  }

  /** Room for the backlog in the parking lot; no examples. */
  public static class Settings implements ConfigSource {
    private static final Map<String, String> VALUES =
        Map.of(
            "taskgate.rate-limit.max-parked-tasks", "20000",
            "taskgate.examples.enabled", "false");

    @Override
    public Set<String> getPropertyNames() {
      return VALUES.keySet();
    }

    @Override
    public String getValue(String name) {
      return VALUES.get(name);
    }

    @Override
    public String getName() {
      return "taskgate-backlog-it";
    }

    @Override
    public int getOrdinal() {
      return 500;
    }
  }
}
