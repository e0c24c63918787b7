package io.taskgate.web;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Vetoes every bean of {@code io.taskgate.web.examples} when MicroProfile Config {@code
 * taskgate.examples.enabled} is false: their handlers are then never registered and nothing is
 * scheduled.
 */
public class ExamplesSwitch implements Extension {
  static final String ENABLED = "taskgate.examples.enabled";
  static final String EXAMPLES_PACKAGE = "io.taskgate.web.examples";
  private static final Logger LOG = Logger.getLogger(ExamplesSwitch.class.getName());

  private boolean enabled = true;

  void readSwitch(@Observes BeforeBeanDiscovery event) {
    enabled =
        ConfigProvider.getConfig().getOptionalValue(ENABLED, Boolean.class).orElse(Boolean.TRUE);
    if (!enabled) {
      LOG.info("Taskgate examples are off (" + ENABLED + "=false)");
    }
  }

  <T> void vetoExamples(@Observes ProcessAnnotatedType<T> event) {
    if (vetoes(enabled, event.getAnnotatedType().getJavaClass())) {
      event.veto();
    }
  }

  static boolean vetoes(boolean enabled, Class<?> type) {
    return !enabled && type.getPackageName().equals(EXAMPLES_PACKAGE);
  }
}
