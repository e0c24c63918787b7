package io.taskgate.archfixture;

import java.util.function.LongSupplier;

/** Reads the monotonic clock through a method reference only, for {@code ArchitectureTest}. */
public class ClockByReference {
  public LongSupplier ticker() {
    return System::nanoTime;
  }
}
