package io.taskgate.engine.handler;

import io.taskgate.api.Task;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.inject.Inject;
import java.util.Collection;
import java.util.Optional;

/** The handlers of this application, as {@link TaskgateExtension} found them at deployment. */
@ApplicationScoped
public class HandlerRegistry {
  @Inject TaskgateExtension extension;

  /** The handler of the task type named {@code typeName}. */
  public Optional<HandlerInfo> find(String typeName) {
    return Optional.ofNullable(extension.handlers().get(typeName));
  }

  /**
   * The handler of {@code taskType}.
   *
   * @throws IllegalArgumentException naming the type and what to do, if there is none
   */
  public HandlerInfo require(Class<? extends Task> taskType) {
    return find(taskType.getName())
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "No handler runs task type "
                        + taskType.getName()
                        + ": write a CDI bean implementing Handler<"
                        + taskType.getSimpleName()
                        + "> annotated @TaskHandler, in a module of this application"));
  }

  /**
   * The CDI bean of {@code handler}: create instances from it with {@code
   * BeanManager.getReference(bean, …)}, which works from the engine's module for handlers in any
   * module of the application (a WAR's beans are not resolvable by type from an EJB jar in an EAR).
   */
  public Bean<?> bean(HandlerInfo handler) {
    return extension
        .bean(handler.beanClass())
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "Taskgate has no CDI bean for handler " + handler.beanClass().getName()));
  }

  /** All handlers. */
  public Collection<HandlerInfo> all() {
    return extension.handlers().values();
  }
}
