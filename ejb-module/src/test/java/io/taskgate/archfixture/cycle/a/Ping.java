package io.taskgate.archfixture.cycle.a;

import io.taskgate.archfixture.cycle.b.Pong;

/** Half of a package cycle, for {@code ArchitectureTest}. */
public class Ping {
  public Pong pong() {
    return new Pong();
  }
}
