package io.taskgate.web.examples;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.Recurrence;
import io.taskgate.api.TaskDispatcher;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;

/**
 * Schedules the {@link Heartbeat} series when the application starts. Its task key makes a restart
 * reuse the queued series instead of adding one.
 */
@ApplicationScoped
public class HeartbeatSchedule {
  static final String TASK_KEY = "taskgate-example-heartbeat";
  static final Duration EVERY = Duration.ofSeconds(30);

  @Inject TaskDispatcher dispatcher;

  void onStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
    dispatcher.schedule(
        new Heartbeat(), Recurrence.every(EVERY), DispatchOptions.now().withTaskKey(TASK_KEY));
  }
}
