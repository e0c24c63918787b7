package io.taskgate.web.archfixture;

import io.taskgate.engine.queue.TaskQueues;

/**
 * A web class that reaches past the engine's facade, breaking a rule of {@code
 * WebArchitectureTest}.
 */
public class PageThatReachesIn {
  public int held(TaskQueues queues) {
    return queues.held() + (int) System.nanoTime();
  }
}
