package io.taskgate.archfixture;

import jakarta.enterprise.context.ApplicationScoped;

/** A normal-scoped bean with a public field, which the container refuses: for ArchitectureTest. */
@ApplicationScoped
public class BeanWithAPublicField {
  public String name;
}
