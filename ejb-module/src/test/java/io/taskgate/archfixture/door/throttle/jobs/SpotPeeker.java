package io.taskgate.archfixture.door.throttle.jobs;

import io.taskgate.archfixture.door.throttle.gate.ParkingSpot;

/** A kind of throttle that reads another kind's parts: the kinds rule catches it. */
public class SpotPeeker {
  boolean peek(ParkingSpot spot) {
    return spot.taken("task");
  }
}
