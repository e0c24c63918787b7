package io.taskgate.engine.throttle.jobs;

import io.taskgate.api.Task;
import io.taskgate.core.throttle.Holders;
import io.taskgate.core.throttle.JobKind;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.Payloads;
import io.taskgate.engine.handler.ThrottlerSpec;
import io.taskgate.engine.throttle.JobThrottlerReads;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskQueries;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Takes again the mutexes and semaphores of the tasks that hold them in the store, when the
 * throttlers' state starts empty (this instance started, or a new state replaced it): tasks
 * IN_PROGRESS (an instance stopped while they ran: they re-enter when taken back, and no other task
 * takes their place meanwhile) and, for strict throttles, tasks waiting for a retry. A task holds
 * again whatever its ids fill to, beyond any limit: it held before.
 */
final class RetakenHolds {
  private static final int PAGE = 500;

  private final JobThrottlers family;

  RetakenHolds(JobThrottlers family) {
    this.family = family;
  }

  /**
   * Takes again, before any task runs, the mutexes and semaphores of the tasks that hold them in
   * the store: those IN_PROGRESS (an instance crashed while they ran: they re-enter when taken
   * back) and, for strict throttles, those waiting for a retry. Returns how many holds it took.
   */
  int rebuild(Collection<HandlerInfo> handlers, TaskQueries queries, Payloads payloads) {
    Map<String, HandlerInfo> byType = new HashMap<>();
    Set<String> strictTypes = new HashSet<>();
    Set<String> relaxedTypes = new HashSet<>();
    for (HandlerInfo handler : handlers) {
      if (handler.throttling().isPresent() && handler.throttling().get().holds()) {
        byType.put(handler.typeName(), handler);
        (family.strict(handler.throttling().get()) ? strictTypes : relaxedTypes)
            .add(handler.typeName());
      }
    }
    int held = 0;
    for (boolean retrying : new boolean[] {true, false}) {
      Set<String> types = retrying ? strictTypes : relaxedTypes;
      if (types.isEmpty()) {
        continue;
      }
      UUID after = null;
      List<StoredTask> page;
      do {
        page = queries.findStarted(types, retrying, after, PAGE);
        for (StoredTask task : page) {
          held += rehold(task, byType.get(task.type()), payloads);
          after = task.id();
        }
      } while (page.size() == PAGE);
    }
    return held;
  }

  private int rehold(StoredTask task, HandlerInfo handler, Payloads payloads) {
    Task payload;
    try {
      payload = payloads.read(task.payload(), handler.taskType());
    } catch (RuntimeException e) {
      return 0; // it fails alone when it runs
    }
    int held = 0;
    for (ThrottlerSpec spec : handler.throttling().get().throttlers()) {
      if (!spec.holds()) {
        continue;
      }
      try {
        String id = spec.resource().fill(payload);
        String resource = JobThrottlerReads.resource(spec.kind(), id);
        String owner = spec.owner() == null ? task.id().toString() : spec.owner().fill(payload);
        if (family.state().acquire(resource, owner, task.id().toString(), limit(spec, handler, id))
            == Holders.Acquired.GRANTED) {
          held++;
        }
      } catch (IllegalArgumentException e) {
        // its id cannot be filled: it never held
      }
    }
    return held;
  }

  /**
   * How many may hold again: any number, as they held before; but a relaxed semaphore whose tasks
   * shared a permit per worker's batch ({@link SemaphoreThrottle#leased}) had more tasks
   * IN_PROGRESS than permits (claimed, waiting their turn on the worker), so only its count of them
   * hold again and the others wait for a permit like any task.
   */
  private int limit(ThrottlerSpec spec, HandlerInfo handler, String id) {
    JobKind kind = JobKind.of(spec.kind());
    if (!(kind.holds() && kind.defined())
        || spec.owner() != null
        || !family.sharesPermits(handler)) {
      return Integer.MAX_VALUE;
    }
    Integer max = family.definitions().semaphore(id);
    return max == null ? Integer.MAX_VALUE : max;
  }
}
