package io.taskgate.it.shop;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.Handler;
import io.taskgate.api.Task;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskDispatcher;
import io.taskgate.api.TaskHandler;
import io.taskgate.engine.ConsumerStart;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A slow application start: while it initialises, the application dispatches a task, then goes on
 * initialising for a second. The task must not run before the start has finished.
 */
@ApplicationScoped
public class StartupProbe {
  /** What the task saw when it ran: whether the start had finished. */
  static final AtomicReference<Boolean> RAN_AFTER_START = new AtomicReference<>();

  private static volatile boolean started;

  @Inject TaskDispatcher dispatcher;

  void initialized(
      @Observes
          @Priority(Interceptor.Priority.APPLICATION + 600)
          @Initialized(ApplicationScoped.class)
          Object event)
      throws InterruptedException {
    if (started) {
      return;
    }
    dispatcher.dispatch(new Early(), DispatchOptions.now());
    Thread.sleep(1000); // the rest of a slow start: real time passing is what is tested
    started = true;
  }

  /** Dispatched while the application starts. */
  public record Early() implements Task {}

  /** Records whether the start had finished when it ran. */
  @TaskHandler
  public static class EarlyHandler implements Handler<Early> {
    @Override
    public void handle(Early task, TaskContext context) {
      RAN_AFTER_START.compareAndSet(null, started);
    }
  }

  /** {@code GET /api/startup-probe}: what the early task saw, and what started the workers. */
  @Path("startup-probe")
  public static class Report {
    @Inject ConsumerStart consumers;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject report() {
      Boolean ran = RAN_AFTER_START.get();
      return Json.createObjectBuilder()
          .add("ran", ran != null)
          .add("ranAfterStart", Boolean.TRUE.equals(ran))
          .add("workersStartedBy", consumers.startedBy().orElse("not yet"))
          .build();
    }
  }
}
