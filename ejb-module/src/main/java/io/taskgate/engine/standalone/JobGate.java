package io.taskgate.engine.standalone;

import io.taskgate.api.ThrottlerKind;
import io.taskgate.api.WindowOptions;
import io.taskgate.engine.event.EngineEvents;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.throttle.AttemptEnd;
import io.taskgate.engine.throttle.Permits;
import io.taskgate.engine.throttle.Throttle;
import io.taskgate.engine.throttle.ThrottleChain;
import io.taskgate.engine.throttle.ThrottledAttempt;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.engine.throttle.concurrency.ConcurrencyProvider;
import io.taskgate.engine.throttle.jobs.StandaloneJobThrottlers;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The job throttlers of the {@link StandaloneEngine}: the server's mutexes, semaphores, windows and
 * concurrency limits, each task type's chained as the server chains them, and the tasks waiting for
 * a resource, woken in arrival order when it is freed. The engine is their composition root, as the
 * container is the server's: it builds each kind's provider; everything else goes through the
 * throttle door.
 */
final class JobGate {
  private final EngineEvents events = new EngineEvents();
  private final Throttles waker = Throttles.of(List.of());
  private final StandaloneJobThrottlers jobs;
  private final ConcurrencyProvider concurrency;
  private final Map<Class<?>, ThrottleChain> chains = new HashMap<>();
  private final Map<String, Set<UUID>> waiting = new LinkedHashMap<>();
  private final Consumer<UUID> wake;

  /** The throttlers at {@code clock}; a freed resource's waiters are handed to {@code wake}. */
  JobGate(InstantSource clock, Consumer<UUID> wake) {
    this.wake = wake;
    jobs = new StandaloneJobThrottlers(clock, events, waker);
    concurrency = new ConcurrencyProvider(waker, events);
    waker.onFreed(this::freed);
  }

  /** Whether tasks of {@code info}'s type pass a job throttler or a concurrency limit. */
  ThrottleChain chainOf(HandlerInfo info) {
    return chains.computeIfAbsent(
        info.beanClass(),
        c -> {
          List<Throttle> throttles = new ArrayList<>();
          throttles.addAll(jobs.provider().throttlesOf(info));
          throttles.addAll(concurrency.throttlesOf(info));
          return ThrottleChain.of(throttles);
        });
  }

  /** Acquires {@code entry}'s throttles, all or nothing, at {@code now}. */
  ThrottleChain.Admission acquire(TaskEntry entry, Instant now) {
    ThrottleChain.Admission admission =
        chainOf(entry.info)
            .acquire(new ThrottledAttempt(entry.stored(), entry.info, entry.task), now);
    if (admission instanceof ThrottleChain.Admission.Refused refused) {
      freed(refused.freed());
    }
    return admission;
  }

  /** {@code entry} waits until {@code resource} is freed. */
  void waitFor(String resource, TaskEntry entry) {
    waiting.computeIfAbsent(resource, r -> new LinkedHashSet<>()).add(entry.id);
  }

  /** Gives back what an attempt held, ended as {@code end}, waking the waiters of what it frees. */
  void release(Permits permits, AttemptEnd end) {
    freed(permits.release(end));
  }

  private void freed(Set<String> resources) {
    for (String resource : resources) {
      Set<UUID> waiters = waiting.remove(resource);
      if (waiters != null) {
        waiters.forEach(wake);
      }
    }
  }

  void addOrUpdateSemaphore(String id, int maxCount) {
    jobs.addOrUpdateSemaphore(id, maxCount);
  }

  void addOrUpdateWindow(ThrottlerKind kind, String id, WindowOptions options) {
    jobs.addOrUpdateWindow(kind, id, options);
  }
}
