package io.taskgate.engine.admin;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.InvalidTaskPayloadException;
import io.taskgate.api.RateLimitRejectedException;
import io.taskgate.api.Task;
import io.taskgate.api.TaskNotFoundException;
import io.taskgate.api.TaskReceipt;
import io.taskgate.api.TaskStatus;
import io.taskgate.api.UnknownTaskTypeException;
import io.taskgate.engine.admin.dto.TaskView;
import io.taskgate.engine.admin.dto.TaskViewPage;
import io.taskgate.engine.dispatch.DefaultTaskDispatcher;
import io.taskgate.engine.dispatch.DispatchLimits;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.HandlerRegistry;
import io.taskgate.engine.handler.Payloads;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.throttle.ParkedTask;
import io.taskgate.engine.throttle.Pausing;
import io.taskgate.engine.throttle.RateLimitReads;
import io.taskgate.engine.throttle.ThrottlerWaits;
import io.taskgate.store.Pause;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskPage;
import io.taskgate.store.TaskQueries;
import io.taskgate.store.TaskQuery;
import io.taskgate.store.TaskStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * The facade the web module uses for tasks: dispatch from JSON, look up, list and cancel. It speaks
 * in task type names and JSON and hands out {@link TaskView} values, never stored entities.
 */
@ApplicationScoped
public class TaskAdmin {
  @Inject HandlerRegistry registry;
  @Inject Payloads payloads;
  @Inject DefaultTaskDispatcher dispatcher;
  @Inject TaskStore store;
  @Inject TaskQueries queries;
  @Inject RateLimitReads rateLimits;
  @Inject TaskQueues queues;
  @Inject DispatchLimits limits;
  @Inject ThrottlerWaits throttlers;
  @Inject Pausing pauses;

  /** The full class names of every task type a handler runs, sorted. */
  public List<String> taskTypes() {
    return registry.all().stream().map(HandlerInfo::typeName).sorted().toList();
  }

  /** The largest task, in bytes of its JSON form ({@code taskgate.dispatch.max-payload-bytes}). */
  public int maxPayloadBytes() {
    return limits.maxPayloadBytes();
  }

  /**
   * Reads {@code json} as the task type named {@code type} and dispatches it.
   *
   * @param type the task type's full class name, or its simple name if no other task type shares it
   * @throws UnknownTaskTypeException if no handler runs such a type, or the simple name is shared
   * @throws InvalidTaskPayloadException if {@code json} is not JSON of that task's shape
   * @throws io.taskgate.api.InvalidTaskException if the task breaks its type's constraints
   * @throws io.taskgate.api.TaskTooLargeException if the task's JSON is over the size limit
   * @throws io.taskgate.api.InvalidDispatchOptionException if {@code options} are refused
   */
  public TaskReceipt dispatchJson(String type, String json, DispatchOptions options) {
    HandlerInfo handler = registry.find(resolveType(type, taskTypes())).orElseThrow();
    Task task;
    try {
      task = payloads.read(json == null ? "" : json, handler.taskType());
    } catch (RuntimeException e) {
      throw new InvalidTaskPayloadException(handler.typeName(), describe(e), e);
    }
    if (task == null) {
      throw new InvalidTaskPayloadException(
          handler.typeName(), "the body is JSON null, not an object", null);
    }
    return dispatcher.dispatch(task, options);
  }

  /** The task with this id, its history, and whether it is parked (until when) or held. */
  public Optional<TaskView> find(UUID id) {
    return store.find(id).map(task -> view(task, queries.history(id), queues::isHeld));
  }

  private TaskView view(
      StoredTask task, List<io.taskgate.store.TaskAudit> history, Predicate<UUID> held) {
    if (task.status() != TaskStatus.QUEUED) {
      return TaskView.of(task, history);
    }
    Instant until = rateLimits.parkedTask(task.id()).map(ParkedTask::slot).orElse(null);
    String waitingFor = throttlers == null ? null : throttlers.waitingFor(task.id()).orElse(null);
    String paused = pauses == null ? null : pauses.holding(task).map(Pause::describe).orElse(null);
    if (paused != null && waitingFor != null && waitingFor.startsWith(Pausing.RESOURCE_PREFIX)) {
      waitingFor = null; // shown as paused
    }
    return TaskView.of(
        task, history, until, until == null && held.test(task.id()), waitingFor, paused);
  }

  /**
   * A page of tasks, newest first.
   *
   * @param type a task type's full class name (also of a type no handler runs any more), or the
   *     simple name of a registered one
   * @throws UnknownTaskTypeException if {@code type} is a simple name no handler's type has, or
   *     more than one
   */
  public TaskViewPage list(
      Optional<TaskStatus> status,
      Optional<String> type,
      Optional<String> queue,
      int page,
      int size) {
    return list(status, type, queue, Optional.empty(), Order.NEWEST, page, size);
  }

  /**
   * A page of tasks in {@code order}, of one rate-limit key if {@code rateKey} is given.
   *
   * @see #list(Optional, Optional, Optional, int, int)
   */
  public TaskViewPage list(
      Optional<TaskStatus> status,
      Optional<String> type,
      Optional<String> queue,
      Optional<String> rateKey,
      Order order,
      int page,
      int size) {
    Optional<String> typeName = type.map(t -> t.contains(".") ? t : resolveType(t, taskTypes()));
    return page(
        new TaskQuery(
            status, typeName, queue, rateKey, TaskQuery.Order.valueOf(order.name()), page, size));
  }

  private TaskViewPage page(TaskQuery query) {
    TaskPage found = queries.query(query);
    Set<UUID> held = queues.heldIds(); // once per page, not once per task
    List<TaskView> items = found.tasks().stream().map(t -> view(t, null, held::contains)).toList();
    return new TaskViewPage(items, query.page(), query.size(), found.total());
  }

  /** How {@link #list} orders the tasks. */
  public enum Order {
    /** The last stored first (the default). */
    NEWEST,
    /** The first stored first. */
    OLDEST,
    /** The soonest due first. */
    DUE;

    /**
     * The order {@code text} names ({@code newest}, {@code oldest}, {@code due}, in any case);
     * {@link #NEWEST} if blank or null.
     *
     * @throws IllegalArgumentException naming the orders, if it names none
     */
    public static Order parse(String text) {
      return text == null || text.isBlank()
          ? NEWEST
          : Named.parse(values(), text, "sort must be newest, oldest or due");
    }
  }

  /**
   * Why a task is throttled, for {@link #listThrottled}: it waits on this instance (parked, held,
   * waiting), or it failed because the rate-limit gate rejected it.
   */
  public enum Throttled {
    /** Parked until its rate-limit key's slot. */
    PARKED,
    /** Held on its queue: rate-limited, and the parking lot is full. */
    HELD,
    /** Waiting for a job throttler (mutex, semaphore, window). */
    WAITING,
    /** Failed: the gate rejected it, its key's next slot lying beyond the policy's horizon. */
    REJECTED_BEYOND_HORIZON,
    /** Failed: the gate rejected it, its key out of budget and its policy discarding. */
    REJECTED_DISCARDED;

    /** The name in a query string: {@code parked}, {@code rejected-beyond-horizon}. */
    public String param() {
      return Named.param(this);
    }

    /**
     * The reason {@code text} names ({@code parked}, {@code rejected-discarded}, in any case, '_'
     * or '-'); empty for {@code any} (every task waiting on this instance).
     *
     * @throws IllegalArgumentException naming the reasons, if it names none
     */
    public static Optional<Throttled> parse(String text) {
      return text != null && text.strip().equalsIgnoreCase("any")
          ? Optional.empty()
          : Optional.of(
              Named.parse(
                  values(),
                  text,
                  "throttled must be any, parked, held, waiting, rejected-beyond-horizon or"
                      + " rejected-discarded"));
    }

    /** The pattern of a rejected task's last error, for this reason; empty for the others. */
    Optional<String> lastErrorLike() {
      return switch (this) {
        case REJECTED_BEYOND_HORIZON, REJECTED_DISCARDED ->
            // HandlerInvoker.describe of a RateLimitRejectedException: its class, then its message
            Optional.of(
                RateLimitRejectedException.class.getName()
                    + ": Rate limit rejected task of type "
                    + TaskQuery.OWN_TYPE
                    + ": reason="
                    + name().substring("REJECTED_".length())
                    + " key=%");
        default -> Optional.empty();
      };
    }
  }

  /**
   * A page of the tasks throttled on this instance: parked ones first, earliest slot first, then
   * held ones, then those waiting for a job throttler; or, for a rejection, the tasks that failed
   * for it, newest first (on every instance: they are read from the store).
   *
   * @param reason only tasks throttled for this reason; all waiting ones if empty
   * @param type a task type's full class name, or the simple name of a registered one
   * @throws UnknownTaskTypeException if {@code type} names no task type
   */
  public TaskViewPage listThrottled(
      Optional<Throttled> reason,
      Optional<String> type,
      Optional<String> queue,
      Optional<String> rateKey,
      int page,
      int size) {
    Optional<String> typeName = type.map(t -> t.contains(".") ? t : resolveType(t, taskTypes()));
    Optional<String> rejected = reason.flatMap(Throttled::lastErrorLike);
    if (rejected.isPresent()) {
      return page(
          new TaskQuery(
              Optional.of(TaskStatus.FAILED),
              typeName,
              queue,
              rateKey,
              rejected,
              TaskQuery.Order.NEWEST,
              page,
              size));
    }
    java.util.function.Predicate<StoredTask> wanted =
        t ->
            typeName.map(t.type()::equals).orElse(true)
                && queue.map(t.queue()::equals).orElse(true)
                && rateKey.map(k -> k.equals(t.rateKey())).orElse(true);
    List<UUID> ids = new java.util.ArrayList<>();
    if (reason.map(Throttled.PARKED::equals).orElse(true)) {
      rateLimits.parkedTasks().stream()
          .filter(p -> wanted.test(p.task()))
          .sorted(java.util.Comparator.comparing(ParkedTask::slot))
          .forEach(p -> ids.add(p.task().id()));
    }
    Set<UUID> held = queues.heldIds();
    if (reason.map(Throttled.HELD::equals).orElse(true)) {
      store.findAll(held).stream().filter(wanted).forEach(t -> ids.add(t.id()));
    }
    if (reason.map(Throttled.WAITING::equals).orElse(true) && throttlers != null) {
      store.findAll(throttlers.waitingIds()).stream().filter(wanted).forEach(t -> ids.add(t.id()));
    }
    List<UUID> onPage = ids.stream().distinct().skip((long) page * size).limit(size).toList();
    java.util.Map<UUID, StoredTask> found = new java.util.HashMap<>();
    store.findAll(onPage).forEach(t -> found.put(t.id(), t));
    List<TaskView> items =
        onPage.stream()
            .map(found::get)
            .filter(java.util.Objects::nonNull)
            .map(t -> view(t, null, held::contains))
            .toList();
    return new TaskViewPage(items, page, size, ids.stream().distinct().count());
  }

  /**
   * Cancels a task that has not started.
   *
   * @return true if it is cancelled now; false if it has already started or finished
   * @throws TaskNotFoundException if no task has this id
   */
  public boolean cancel(UUID id) {
    return cancel(id, null);
  }

  /**
   * Cancels a task that has not started, recording who did it in its audit and as its last error
   * ({@code Cancelled by admin on the admin page}).
   *
   * @param by who cancels it and how ({@code admin on the admin page}), or null
   * @return true if it is cancelled now; false if it has already started or finished
   * @throws TaskNotFoundException if no task has this id
   */
  public boolean cancel(UUID id, String by) {
    StoredTask task = store.find(id).orElseThrow(() -> new TaskNotFoundException(id));
    if (task.status() != TaskStatus.QUEUED) {
      return false;
    }
    return dispatcher.cancel(id, by == null ? null : "Cancelled by " + by);
  }

  /**
   * Cancels every task of {@code taskType} parked on this instance until a slot of {@code key},
   * recording who did it in each one's audit.
   *
   * @param taskType a task type's full class name, or a simple name no other type shares
   * @param by who cancels them and how ({@code admin on the admin page})
   * @return how many were cancelled (a task that started meanwhile is not)
   * @throws UnknownTaskTypeException if {@code taskType} names no task type
   */
  public int cancelParked(String taskType, String key, String by) {
    String type = resolveTaskType(taskType);
    List<UUID> ids =
        rateLimits.parkedTasks().stream()
            .filter(p -> p.task().type().equals(type) && p.key().equals(key))
            .map(p -> p.task().id())
            .toList();
    int cancelled = 0;
    for (UUID id : ids) {
      if (dispatcher.cancel(id, "Cancelled by " + by + ", with every task parked on key " + key)) {
        cancelled++;
      }
    }
    return cancelled;
  }

  /**
   * The full class name of the task type {@code requested} names: itself, or the registered type
   * whose simple name it is.
   *
   * @throws UnknownTaskTypeException if no handler's type matches, or more than one
   */
  public String resolveTaskType(String requested) {
    return resolveType(requested, taskTypes());
  }

  /**
   * The full name among {@code known} that {@code requested} names: itself, or the one whose simple
   * name (after the last '.' or '$') it is.
   *
   * @throws UnknownTaskTypeException if none or more than one matches
   */
  static String resolveType(String requested, Collection<String> known) {
    List<String> sorted = known.stream().sorted().toList();
    if (requested != null && sorted.contains(requested)) {
      return requested;
    }
    List<String> matches =
        sorted.stream()
            .filter(name -> requested != null && !requested.isEmpty())
            .filter(name -> simpleName(name).equals(requested) || canonical(name).equals(requested))
            .toList();
    if (matches.size() == 1) {
      return matches.get(0);
    }
    throw new UnknownTaskTypeException(
        String.valueOf(requested), matches.size() > 1 ? matches : List.of(), sorted);
  }

  static String simpleName(String className) {
    int cut = Math.max(className.lastIndexOf('.'), className.lastIndexOf('$'));
    return className.substring(cut + 1);
  }

  private static String canonical(String className) {
    return className.replace('$', '.');
  }

  private static String describe(Throwable e) {
    StringBuilder reason = new StringBuilder(String.valueOf(e.getMessage()));
    Throwable cause = e.getCause();
    for (int depth = 0; cause != null && cause != e && depth < 3; depth++) {
      if (cause.getMessage() != null && !reason.toString().contains(cause.getMessage())) {
        reason.append(": ").append(cause.getMessage());
      }
      e = cause;
      cause = cause.getCause();
    }
    return reason.toString();
  }
}
