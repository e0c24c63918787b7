package io.taskgate.it.engine;

import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.spi.ConfigSource;

/** A test deployment's settings: a fixed map under a name, at the default ordinal. */
public abstract class FixedConfigSource implements ConfigSource {
  private final String name;
  private final Map<String, String> values;

  protected FixedConfigSource(String name, Map<String, String> values) {
    this.name = name;
    this.values = Map.copyOf(values);
  }

  @Override
  public Map<String, String> getProperties() {
    return values;
  }

  @Override
  public Set<String> getPropertyNames() {
    return values.keySet();
  }

  @Override
  public String getValue(String propertyName) {
    return values.get(propertyName);
  }

  @Override
  public String getName() {
    return name;
  }
}
