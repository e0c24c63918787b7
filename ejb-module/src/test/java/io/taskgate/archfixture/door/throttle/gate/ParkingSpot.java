package io.taskgate.archfixture.door.throttle.gate;

/** A part of a fixture's rate-limit throttle, behind its door. */
public class ParkingSpot {
  public boolean taken(String taskId) {
    return !taskId.isEmpty();
  }
}
