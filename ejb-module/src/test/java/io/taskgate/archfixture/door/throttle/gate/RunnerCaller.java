package io.taskgate.archfixture.door.throttle.gate;

import io.taskgate.archfixture.door.run.PoliteRunner;

/**
 * A throttle that calls into the runner: the rule that keeps throttles below the run catches it.
 */
public class RunnerCaller {
  String call(PoliteRunner runner) {
    return runner.toString();
  }
}
