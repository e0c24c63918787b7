package io.taskgate.engine.throttle.concurrency;

import io.taskgate.api.Concurrency;
import io.taskgate.api.TaskHandler;
import io.taskgate.engine.handler.HandlerInfo;
import io.taskgate.engine.handler.TaskgateExtension;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessManagedBean;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.logging.Logger;

/**
 * Checks every handler's {@link Concurrency} at deployment: a limit out of range or a key naming
 * nothing the task has fails the deployment with a message naming the handler, the option and the
 * value. {@code @Concurrency} on a bean that is not a {@link TaskHandler} is ignored with a
 * warning.
 */
public class ConcurrencyExtension implements Extension {
  private static final Logger LOG = Logger.getLogger(ConcurrencyExtension.class.getName());

  void onBean(@Observes ProcessManagedBean<?> event) {
    var type = event.getAnnotatedBeanClass();
    if (type.isAnnotationPresent(Concurrency.class)
        && !type.isAnnotationPresent(TaskHandler.class)) {
      LOG.warning(
          "Taskgate: "
              + type.getJavaClass().getName()
              + " is annotated @Concurrency but not @TaskHandler; the annotation is ignored");
    }
  }

  void check(@Observes AfterDeploymentValidation event, BeanManager beanManager) {
    TaskgateExtension handlers = beanManager.getExtension(TaskgateExtension.class);
    for (String problem : problems(handlers.handlers().values())) {
      event.addDeploymentProblem(new DeploymentException(problem));
    }
  }

  /** What is wrong with {@code handlers}' concurrency limits, one message per handler. */
  static List<String> problems(Collection<HandlerInfo> handlers) {
    List<String> problems = new ArrayList<>();
    for (HandlerInfo handler : handlers) {
      try {
        ConcurrencyLimit.of(handler);
      } catch (IllegalArgumentException e) {
        problems.add(TaskgateExtension.problem(handler.beanClass(), e.getMessage()));
      }
    }
    return problems;
  }
}
