package io.taskgate.engine.admin;

import io.taskgate.api.TaskStatus;
import io.taskgate.engine.admin.dto.BacklogView;
import io.taskgate.engine.admin.dto.ClusterView;
import io.taskgate.engine.queue.QueueSettings;
import io.taskgate.store.TaskQueries;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The backlog per queue and the instances holding tasks, for the metrics and the alerts. */
@ApplicationScoped
public class BacklogViews {
  @Inject TaskQueries queries;
  @Inject QueueSettings queueSettings;
  @Inject ClusterViews cluster;
  @Inject InstantSource clock;

  /**
   * The backlog now: each configured queue (with nothing stored: zeros), then every other queue
   * with stored tasks; and the instances, alive or dead, with the tasks the dead ones hold.
   */
  public BacklogView backlog() {
    Instant at = clock.instant();
    Map<String, Map<TaskStatus, Long>> counts = queries.countByQueueAndStatus();
    Map<String, Instant> oldest = queries.oldestDueByQueue(at);
    List<String> names = new ArrayList<>(queueSettings.queues().keySet());
    counts.keySet().stream().filter(q -> !names.contains(q)).sorted().forEach(names::add);
    List<BacklogView.QueueBacklog> queues = new ArrayList<>(names.size());
    for (String name : names) {
      Map<TaskStatus, Long> of = counts.getOrDefault(name, Map.of());
      queues.add(
          new BacklogView.QueueBacklog(
              name,
              of.getOrDefault(TaskStatus.QUEUED, 0L),
              of.getOrDefault(TaskStatus.IN_PROGRESS, 0L),
              oldest.get(name)));
    }
    int alive = 0;
    int dead = 0;
    long deadTasks = 0;
    for (ClusterView.Member member : cluster.cluster().instances()) {
      if (member.alive()) {
        alive++;
      } else {
        dead++;
        deadTasks += member.inProgressTasks();
      }
    }
    return new BacklogView(at, queues, alive, dead, deadTasks);
  }
}
