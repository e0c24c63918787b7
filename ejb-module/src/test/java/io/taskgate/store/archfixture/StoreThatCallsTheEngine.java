package io.taskgate.store.archfixture;

import io.taskgate.engine.ConsumerStart;

/** A store class that reaches into the engine, breaking a rule of {@code ArchitectureTest}. */
public class StoreThatCallsTheEngine {
  public void started(ConsumerStart start) {
    start.webInitialised("/");
  }
}
