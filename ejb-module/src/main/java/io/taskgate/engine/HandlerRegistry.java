package io.taskgate.engine;

import io.taskgate.api.Task;
import jakarta.enterprise.context.ApplicationScoped;
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

  /** All handlers. */
  public Collection<HandlerInfo> all() {
    return extension.handlers().values();
  }
}
