package io.taskgate.engine.throttle;

import java.util.List;
import java.util.Set;

/**
 * One throttle as the views list it, whatever its kind: what it allows, who holds it now, and which
 * task types use it. A kind that has rows gives them through {@link ThrottleProvider#rows}.
 *
 * @param kind the kind, as the REST API and the pages spell it ({@code concurrency})
 * @param id its id within the kind
 * @param limit how many may hold one of its resources at once
 * @param held its resources that are held now, each with the tasks holding it
 * @param usedBy the task types using it
 */
public record ThrottleRow(String kind, String id, int limit, List<Held> held, List<String> usedBy) {

  /**
   * A resource of the throttle and the tasks holding it.
   *
   * @param resource the resource's name, as tasks wait for it ({@link ResourceWaiters})
   * @param label how the views name it (the key)
   * @param tasks the ids of the tasks holding it
   */
  public record Held(String resource, String label, Set<String> tasks) {}
}
