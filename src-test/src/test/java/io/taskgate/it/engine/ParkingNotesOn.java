package io.taskgate.it.engine;

import java.util.Map;

/**
 * Turns the parking notes on ({@code taskgate.audit.parking-notes=true}) in the deployments of the
 * tests that read them in a task's history (ApiIT, AdminUiIT); the others run with the default,
 * off.
 */
public class ParkingNotesOn extends FixedConfigSource {
  public ParkingNotesOn() {
    super("taskgate-it-parking-notes", Map.of("taskgate.audit.parking-notes", "true"));
  }
}
