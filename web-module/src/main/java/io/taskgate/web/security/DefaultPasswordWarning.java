package io.taskgate.web.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Logs a warning at start for each default user that still has the password Taskgate ships with.
 */
@ApplicationScoped
public class DefaultPasswordWarning {
  private static final Logger LOG = Logger.getLogger(DefaultPasswordWarning.class.getName());

  void onStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
    var settings = ConfigIdentityStore.settings(ConfigProvider.getConfig());
    for (String user : new String[] {"admin", "viewer"}) {
      String key = ConfigIdentityStore.PREFIX + user + ".password";
      String shipped = ConfigIdentityStore.DEFAULTS.get(key);
      if (shipped != null
          && !shipped.isEmpty()
          && settings.apply(key).filter(shipped::equals).isPresent()) {
        LOG.warning(
            "Taskgate: user '"
                + user
                + "' still has the default password. Change it before production: set "
                + key
                + " (for example the environment variable TASKGATE_SECURITY_USER_"
                + user.toUpperCase(java.util.Locale.ROOT)
                + "_PASSWORD), or to an empty value to disable the user");
      }
    }
  }
}
