package io.taskgate.archfixture.door.limiter;

import io.taskgate.archfixture.door.throttle.Door;

/** A method limiter that uses the task throttles: the limiter rule catches it. */
public class DoorUser {
  boolean waiting(Door door) {
    return door.waiting("task");
  }
}
