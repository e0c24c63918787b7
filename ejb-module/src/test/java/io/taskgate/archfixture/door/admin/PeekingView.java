package io.taskgate.archfixture.door.admin;

import io.taskgate.archfixture.door.throttle.gate.Internals;

/** A view that reads a throttle's internals instead of its read model: the door rule catches it. */
public class PeekingView {
  int parked(Internals internals) {
    return internals.parked();
  }
}
