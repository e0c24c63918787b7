package io.taskgate.archfixture.door.run;

import io.taskgate.archfixture.door.throttle.Door;

/** A runner that asks the door: the rule lets it be. */
public class PoliteRunner {
  boolean waits(Door door, String taskId) {
    return door.waiting(taskId);
  }
}
