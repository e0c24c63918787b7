package io.taskgate.engine.dispatch;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.DuplicateTaskException;
import io.taskgate.api.TaskReceipt;
import io.taskgate.api.TaskStatus;
import io.taskgate.api.UniqueConflict;
import io.taskgate.api.UniquePolicy;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.throttle.Throttles;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskStore;
import io.taskgate.store.UniqueClaim;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Dispatches of unique tasks ({@link io.taskgate.api.Unique}, {@link DispatchOptions#unique}, or a
 * task key alone, {@link UniquePolicy#TASK_KEY}): the task is stored only if its key is free
 * ({@link TaskStore#insertUnique}, which the database makes atomic across instances); otherwise the
 * policy keeps the existing task, refuses the dispatch, or gives a QUEUED existing task the new
 * payload.
 */
final class UniqueTasks {
  /** How often a claim is tried again when the existing task changes or goes meanwhile. */
  private static final int TRIES = 5;

  /** The prefix of a unique key made of the whole task: its JSON's SHA-256, in hex. */
  static final String PAYLOAD_KEY = "sha256:";

  private final TaskStore store;
  private final Throttles throttles;
  private final Map<Class<?>, Optional<UniquePolicy>> declared = new ConcurrentHashMap<>();

  UniqueTasks(TaskStore store, Throttles throttles) {
    this.store = store;
    this.throttles = throttles;
  }

  /**
   * How a task of {@code handler}'s type dispatched with {@code options} is unique: the options'
   * policy, else the type's {@code @Unique}, else {@link UniquePolicy#TASK_KEY} when it has a task
   * key; empty when it is not unique.
   */
  Optional<UniquePolicy> policy(HandlerInfo handler, DispatchOptions options) {
    Optional<UniquePolicy> policy =
        options
            .unique()
            .or(() -> declared.computeIfAbsent(handler.beanClass(), c -> handler.unique()));
    return policy.isPresent() || options.taskKey().isEmpty()
        ? policy
        : Optional.of(UniquePolicy.TASK_KEY);
  }

  /** Whether tasks of {@code handler}'s type are unique without a task key ({@code @Unique}). */
  boolean declared(HandlerInfo handler) {
    return declared.computeIfAbsent(handler.beanClass(), c -> handler.unique()).isPresent();
  }

  /** The unique key of a task: its task key, or its JSON's digest ({@value #PAYLOAD_KEY}…). */
  static String key(Optional<String> taskKey, String payload) {
    if (taskKey.isPresent()) {
      return taskKey.get();
    }
    return PAYLOAD_KEY + io.taskgate.core.Digests.sha256(payload);
  }

  /**
   * Stores {@code task} if its key ({@link StoredTask#taskKey}) is free under {@code policy}: empty
   * when it was stored; otherwise the receipt of the existing task (kept, or given the new
   * payload).
   *
   * @throws DuplicateTaskException if the key is taken and the policy rejects duplicates
   */
  Optional<TaskReceipt> insert(StoredTask task, UniquePolicy policy, Instant now) {
    UniqueClaim claim = new UniqueClaim(task.type(), task.taskKey(), policy);
    for (int i = 0; i < TRIES; i++) {
      Optional<UUID> holder = store.insertUnique(task, claim);
      if (holder.isEmpty()) {
        return Optional.empty();
      }
      StoredTask existing = store.find(holder.get()).orElse(null);
      if (existing == null) {
        continue; // deleted meanwhile: the key is free now
      }
      if (policy.onConflict() == UniqueConflict.REJECT) {
        throw new DuplicateTaskException(
            task.type(), task.taskKey(), existing.id(), existing.status());
      }
      if (policy.onConflict() == UniqueConflict.KEEP || existing.status() != TaskStatus.QUEUED) {
        return Optional.of(
            new TaskReceipt(
                existing.id(), existing.scheduledAt(), false, existing.scheduledAt(), true));
      }
      Optional<StoredTask> replaced =
          store.update(
              existing, existing.withPayload(task.payload()).withRateKey(task.rateKey()), now);
      if (replaced.isPresent()) {
        Instant slot = throttles.replaced(replaced.get());
        return Optional.of(
            new TaskReceipt(
                existing.id(),
                existing.scheduledAt(),
                true,
                slot != null ? slot : existing.scheduledAt(),
                true));
      }
      // it changed meanwhile (it started, say): look again
    }
    throw new IllegalStateException(
        "Taskgate could not dispatch a task of type "
            + task.type()
            + " with unique key "
            + task.taskKey()
            + ": the task holding the key kept changing; try again");
  }
}
