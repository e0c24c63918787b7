package io.taskgate.engine.admin;

import io.taskgate.api.PauseScope;
import io.taskgate.api.TaskNotFoundException;
import io.taskgate.api.TaskNotRequeueableException;
import io.taskgate.api.TaskStatus;
import io.taskgate.engine.admin.dto.EndedTasks;
import io.taskgate.engine.admin.dto.PauseView;
import io.taskgate.engine.admin.dto.TaskView;
import io.taskgate.engine.dispatch.DefaultTaskDispatcher;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.throttle.Pausing;
import io.taskgate.store.Pause;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskFilter;
import io.taskgate.store.TaskPruning;
import io.taskgate.store.TaskQueries;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.InstantSource;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * What an operator does to ended tasks, one or in bulk: queue FAILED and CANCELLED ones again, or
 * delete ended ones with their audit rows. Each task requeued gets a row in its audit saying who
 * did it; a bulk action is logged with who did it, its filter and its count (a deleted task's audit
 * goes with it).
 */
@ApplicationScoped
public class TaskMaintenance {
  private static final Logger LOG = Logger.getLogger(TaskMaintenance.class.getName());

  /** The statuses a task may be requeued from. */
  public static final Set<TaskStatus> REQUEUEABLE =
      Set.copyOf(EnumSet.of(TaskStatus.FAILED, TaskStatus.CANCELLED));

  /** The most tasks one bulk requeue takes; more matching ones are left for the next call. */
  public static final int MAX_BULK = 10_000;

  private static final int PAGE = 500;

  private final DefaultTaskDispatcher dispatcher;
  private final TaskQueries queries;
  private final TaskPruning pruning;
  private final TaskAdmin tasks;
  private final InstantSource clock;
  private final Pausing pausing;
  private final TaskQueues queues;

  /** For the CDI proxy. */
  protected TaskMaintenance() {
    this(null, null, null, null, null, null, null);
  }

  @Inject
  TaskMaintenance(
      DefaultTaskDispatcher dispatcher,
      TaskQueries queries,
      TaskPruning pruning,
      TaskAdmin tasks,
      InstantSource clock,
      Pausing pausing,
      TaskQueues queues) {
    this.dispatcher = dispatcher;
    this.queries = queries;
    this.pruning = pruning;
    this.tasks = tasks;
    this.clock = clock;
    this.pausing = pausing;
    this.queues = queues;
  }

  /** The pauses in force, by scope then name, each with the QUEUED tasks it holds. */
  public List<PauseView> pauses() {
    return pausing.pauses().stream().map(this::view).toList();
  }

  /**
   * Pauses a queue, a task type or a rate-limit key: its QUEUED tasks stay queued and none starts
   * (on any instance) until it is resumed; tasks already running finish. Stored (it survives a
   * restart) and logged with {@code by} in the throttlers' change log. Pausing what is paused
   * already changes nothing.
   *
   * @param name a queue's name, a task type's full class name (or its simple name if no other type
   *     shares it), or a rate-limit key
   * @return the pause in force
   * @throws IllegalArgumentException naming the field, if the name is missing, too long, or names
   *     no queue
   * @throws io.taskgate.api.UnknownTaskTypeException if it names no task type
   */
  public PauseView pause(PauseScope scope, String name, String by, String reason) {
    String known = scope == PauseScope.TYPE ? TaskAdmin.resolveType(name, tasks.taskTypes()) : name;
    if (scope == PauseScope.QUEUE && name != null && !queues.names().contains(name)) {
      throw new IllegalArgumentException(
          "name: no queue is called '"
              + name
              + "'; the queues are "
              + String.join(", ", new java.util.TreeSet<>(queues.names())));
    }
    return view(pausing.pause(scope, known, by, reason));
  }

  /**
   * Ends a pause: its tasks start again, at once on this instance, within a second on the others.
   *
   * @param name as for {@link #pause}; a pause of a type no handler runs any more is named in full
   * @return the pause ended, empty if it was not paused
   */
  public Optional<PauseView> resume(PauseScope scope, String name, String by) {
    String known = name;
    if (scope == PauseScope.TYPE
        && name != null
        && pausing.pauses().stream().noneMatch(p -> p.scope() == scope && p.name().equals(name))) {
      known = TaskAdmin.resolveType(name, tasks.taskTypes());
    }
    return pausing.resume(scope, known, by).map(this::view);
  }

  private PauseView view(Pause pause) {
    TaskFilter queued = TaskFilter.of(Set.of(TaskStatus.QUEUED));
    queued =
        switch (pause.scope()) {
          case QUEUE -> queued.withQueue(pause.name());
          case TYPE -> queued.withType(pause.name());
          case KEY -> queued.withRateKey(pause.name());
        };
    return new PauseView(
        pause.scope(),
        pause.name(),
        pause.at(),
        pause.by(),
        pause.reason(),
        queries.count(queued),
        pausing.waiting(pause.scope(), pause.name()));
  }

  /**
   * Queues a FAILED or CANCELLED task again, due now, as new attempts of the same task (its history
   * kept), recording {@code by} ({@code admin through the REST API}) in its audit.
   *
   * @return the task as it is now
   * @throws TaskNotFoundException if no task has this id
   * @throws TaskNotRequeueableException naming the reason, if it cannot be queued again
   */
  public TaskView requeue(UUID id, String by) {
    dispatcher.requeue(id, "Requeued by " + by);
    return tasks.find(id).orElseThrow(() -> new TaskNotFoundException(id));
  }

  /**
   * How many tasks {@code selection} takes now.
   *
   * @throws IllegalArgumentException if it takes a status other than FAILED or CANCELLED
   * @throws io.taskgate.api.UnknownTaskTypeException if its type names no task type
   */
  public long countRequeueable(EndedTasks selection) {
    return queries.count(requeueable(selection));
  }

  /**
   * Queues every task {@code filter} takes again, {@value #MAX_BULK} at most, as {@link #requeue}
   * does one; a task that cannot be (its type has no handler, another task holds its task key, it
   * changed meanwhile) is skipped and counted.
   *
   * @throws IllegalArgumentException if {@code selection} takes a status other than FAILED or
   *     CANCELLED
   * @throws io.taskgate.api.UnknownTaskTypeException if its type names no task type
   */
  public Bulk requeueAll(EndedTasks selection, String by) {
    TaskFilter checked = requeueable(selection);
    int requeued = 0;
    int skipped = 0;
    String firstSkip = null;
    UUID after = null;
    while (requeued + skipped < MAX_BULK) {
      List<StoredTask> page =
          queries.find(checked, after, Math.min(PAGE, MAX_BULK - requeued - skipped));
      if (page.isEmpty()) {
        break;
      }
      for (StoredTask task : page) {
        try {
          dispatcher.requeue(
              task.id(), "Requeued by " + by + ", with every task matching " + describe(checked));
          requeued++;
        } catch (TaskNotRequeueableException | TaskNotFoundException e) {
          skipped++;
          firstSkip = firstSkip == null ? e.getMessage() : firstSkip;
        }
      }
      after = page.get(page.size() - 1).id();
    }
    boolean more = requeued + skipped >= MAX_BULK && !queries.find(checked, after, 1).isEmpty();
    Bulk bulk = new Bulk(requeued, skipped, firstSkip, more);
    LOG.info(
        () ->
            "Taskgate: "
                + by
                + " requeued "
                + bulk.done()
                + " task(s) matching "
                + describe(checked)
                + (bulk.skipped() > 0
                    ? "; skipped " + bulk.skipped() + " (the first: " + bulk.firstSkip() + ")"
                    : ""));
    return bulk;
  }

  /**
   * How many ended tasks {@code selection} takes now.
   *
   * @throws io.taskgate.api.UnknownTaskTypeException if its type names no task type
   */
  public long count(EndedTasks selection) {
    return queries.count(filter(selection));
  }

  /**
   * Deletes every ended task {@code selection} takes, with its audit rows, {@value #MAX_BULK} at
   * most, those that ended first first; logs who did it, the filter and the count.
   *
   * @throws io.taskgate.api.UnknownTaskTypeException if its type names no task type
   */
  public Bulk deleteAll(EndedTasks selection, String by) {
    TaskFilter filter = filter(selection);
    int deleted = 0;
    while (deleted < MAX_BULK) {
      int batch = Math.min(PAGE, MAX_BULK - deleted);
      int n = pruning.delete(filter, batch, false);
      deleted += n;
      if (n < batch) {
        break;
      }
    }
    boolean more = deleted >= MAX_BULK && queries.count(filter) > 0;
    int done = deleted;
    LOG.info(
        () ->
            "Taskgate: "
                + by
                + " deleted "
                + done
                + " ended task(s) matching "
                + describe(filter)
                + ", with their audit rows");
    return new Bulk(deleted, 0, null, more);
  }

  /**
   * What a bulk action did.
   *
   * @param done tasks it changed
   * @param skipped tasks it matched but left as they were
   * @param firstSkip why the first skipped one was left, null if none was
   * @param more whether more tasks match than one call takes ({@value #MAX_BULK}): call it again
   */
  public record Bulk(int done, int skipped, String firstSkip, boolean more) {}

  private TaskFilter requeueable(EndedTasks selection) {
    if (!REQUEUEABLE.containsAll(selection.statuses())) {
      throw new IllegalArgumentException(
          "status must be FAILED or CANCELLED to requeue, was " + selection.statuses());
    }
    return filter(selection);
  }

  /** The store's filter of {@code selection}, its ages counted back from now. */
  TaskFilter filter(EndedTasks selection) {
    Instant now = clock.instant();
    return new TaskFilter(
        selection.statuses(),
        selection.type().map(t -> t.contains(".") ? t : tasks.resolveTaskType(t)),
        selection.queue(),
        selection.rateKey(),
        selection.errorContains(),
        selection.olderThan().map(now::minus),
        selection.newerThan().map(now::minus));
  }

  /** {@code filter} in words, for the audit and the log. */
  static String describe(TaskFilter filter) {
    StringBuilder text =
        new StringBuilder("status ")
            .append(
                String.join(" or ", filter.statuses().stream().map(Enum::name).sorted().toList()));
    filter.type().ifPresent(t -> text.append(", type ").append(t));
    filter.queue().ifPresent(q -> text.append(", queue ").append(q));
    filter.rateKey().ifPresent(k -> text.append(", key ").append(k));
    filter
        .errorContains()
        .ifPresent(e -> text.append(", error containing '").append(e).append('\''));
    filter.changedBefore().ifPresent(b -> text.append(", ended before ").append(b));
    filter.changedAfter().ifPresent(a -> text.append(", ended since ").append(a));
    return text.toString();
  }
}
