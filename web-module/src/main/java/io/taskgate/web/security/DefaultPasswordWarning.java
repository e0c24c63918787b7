package io.taskgate.web.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.ConfigProvider;

/** Logs a warning at start while the admin user still has the password Taskgate ships with. */
@ApplicationScoped
public class DefaultPasswordWarning {
  private static final Logger LOG = Logger.getLogger(DefaultPasswordWarning.class.getName());

  void onStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
    String key = ConfigIdentityStore.ADMIN_PASSWORD_KEY;
    boolean shipped =
        ConfigIdentityStore.settings(ConfigProvider.getConfig())
            .apply(key)
            .filter(ConfigIdentityStore.DEFAULT_ADMIN_PASSWORD::equals)
            .isPresent();
    if (shipped) {
      LOG.warning(
          "Taskgate: user 'admin' still has the default password. Change it before production:"
              + " set "
              + key
              + " (for example the environment variable TASKGATE_SECURITY_USER_ADMIN_PASSWORD)");
    }
  }
}
