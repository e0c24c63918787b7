package io.taskgate.engine.run;

import io.taskgate.engine.handler.HandlerInvoker;
import io.taskgate.engine.queue.TaskQueues;
import io.taskgate.engine.schedule.TaskScheduler;
import io.taskgate.store.CommitWait;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What a worker does while the store commits its claims or outcomes: it starts the tasks on its
 * queue's start lane (claimed ahead, their slot has come) whose handler returns quickly ({@link
 * HandlerInvoker#quick}), and stores their outcomes once its own batch is done ({@link
 * #finishAll}). A task on the lane that is no longer claimed ahead here (cancelled meanwhile) goes
 * to the due lane, where a worker handles it as usual. One per batch of a worker; not thread-safe.
 */
public final class CommitTimeStarts implements HelpingWait.Helper {
  private static final Logger LOG = Logger.getLogger(CommitTimeStarts.class.getName());

  private final TaskQueues.StartLane starts;
  private final RunningTasks running;
  private final HandlerInvoker invoker;
  private final OutcomeRecorder recorder;
  private final TaskScheduler scheduler;
  private final Function<RunningTasks.Ready, AttemptOutcome> start;
  private final List<AttemptOutcome> outcomes = new ArrayList<>();
  private final Set<UUID> open = new HashSet<>();
  private final HelpingWait wait = new HelpingWait(this);

  /**
   * @param start starts a task claimed ahead and answers its outcome, or null if it waits on the
   *     timeline again (held for spacing)
   */
  CommitTimeStarts(
      TaskQueues.StartLane starts,
      RunningTasks running,
      HandlerInvoker invoker,
      OutcomeRecorder recorder,
      TaskScheduler scheduler,
      Function<RunningTasks.Ready, AttemptOutcome> start) {
    this.starts = starts;
    this.running = running;
    this.invoker = invoker;
    this.recorder = recorder;
    this.scheduler = scheduler;
    this.start = start;
  }

  @Override
  public boolean helpOnce() {
    UUID id =
        starts.pollStart(
            taskId -> {
              RunningTasks.Ready ready = running.claimedAhead(taskId);
              return ready == null || invoker.quick(ready.claim().handler());
            });
    if (id == null) {
      return false;
    }
    RunningTasks.Ready ready = running.takeClaimedAhead(id);
    if (ready == null) {
      starts.toDueLane(id);
      return true;
    }
    running.startedWhileWaiting();
    open.add(id);
    try {
      AttemptOutcome outcome = start.apply(ready);
      if (outcome == null) {
        open.remove(id); // held for spacing: it waits on the timeline
      } else {
        outcomes.add(outcome);
      }
    } catch (RuntimeException e) {
      LOG.log(Level.SEVERE, "Taskgate worker failed on task " + id, e);
    }
    return true;
  }

  /** How the worker waits for its own commits: starting tasks from its queue's start lane. */
  CommitWait commitWait() {
    return wait;
  }

  @Override
  public void waiting(boolean waiting) {
    starts.waitingForStore(waiting);
  }

  /** Stores the outcomes of the tasks started while waiting (more may start meanwhile). */
  void finishAll() {
    while (!outcomes.isEmpty()) {
      List<AttemptOutcome> done = new ArrayList<>(outcomes);
      outcomes.clear();
      recorder.finish(done, open, this);
    }
    open.forEach(
        id -> {
          scheduler.letGo(id);
          running.doneExecuting(id);
        });
    open.clear();
  }
}
