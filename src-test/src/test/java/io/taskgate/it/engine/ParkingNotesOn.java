package io.taskgate.it.engine;

import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Turns the parking notes on ({@code taskgate.audit.parking-notes=true}) in the deployments of the
 * tests that read them in a task's history (ApiIT, AdminUiIT); the others run with the default,
 * off.
 */
public class ParkingNotesOn implements ConfigSource {
  private static final Map<String, String> VALUES = Map.of("taskgate.audit.parking-notes", "true");

  @Override
  public Map<String, String> getProperties() {
    return VALUES;
  }

  @Override
  public Set<String> getPropertyNames() {
    return VALUES.keySet();
  }

  @Override
  public String getValue(String propertyName) {
    return VALUES.get(propertyName);
  }

  @Override
  public String getName() {
    return "taskgate-it-parking-notes";
  }
}
