package io.taskgate.archfixture.cycle.b;

import io.taskgate.archfixture.cycle.a.Ping;

/** The other half of a package cycle, for {@code ArchitectureTest}. */
public class Pong {
  public Ping ping() {
    return new Ping();
  }
}
