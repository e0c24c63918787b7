package io.taskgate.archfixture.door.run;

import io.taskgate.archfixture.door.throttle.gate.ParkingSpot;

/** A runner that reaches past the door into a throttle's parts: the door rule catches it. */
public class ReachingRunner {
  boolean waits(ParkingSpot spot, String taskId) {
    return spot.taken(taskId);
  }
}
