package io.taskgate.archfixture.door.throttle.gate;

/** A throttle's internal part, for the door rule's fixture. */
public class Internals {
  public int parked() {
    return 0;
  }
}
