package io.taskgate.web.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Checks credentials (from {@link TaskgateAuthenticationMechanism}: the login page or HTTP Basic)
 * against users defined in MicroProfile Config: user {@code <name>} has the password {@code
 * taskgate.security.user.<name>.password} and the groups (comma-separated) {@code
 * taskgate.security.user.<name>.groups}; group {@value Roles#ADMIN} maps to role {@value
 * Roles#ADMIN}, group {@value Roles#VIEWER} to role {@value Roles#VIEWER}
 * (WEB-INF/glassfish-web.xml). A user without a password, or with an empty one, cannot log in.
 * MicroProfile Config treats an empty value as no value, which would let the default password of
 * {@code admin} or {@code viewer} through; so an empty value in the config source that wins is read
 * as an empty password ({@link #settings}).
 *
 * <p>Keys MicroProfile Config does not set come from {@code server-config/default-users.properties}
 * (user {@code admin} in group {@value Roles#ADMIN}, user {@code viewer} in group {@value
 * Roles#VIEWER}), which the build packages next to this class: a classpath resource of the WAR,
 * read the same way on Payara Server and Payara Micro. (A WAR's {@code
 * META-INF/microprofile-config.properties} would not do: in an EAR Payara's MicroProfile Config
 * does not read it.)
 */
@ApplicationScoped
public class ConfigIdentityStore implements IdentityStore {
  static final String PREFIX = "taskgate.security.user.";
  static final String DEFAULT_USERS = "default-users.properties";
  static final String ADMIN_PASSWORD_KEY = PREFIX + "admin.password";
  static final String VIEWER_PASSWORD_KEY = PREFIX + "viewer.password";
  static final Map<String, String> DEFAULTS = readDefaults();
  private static final Pattern USER_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  /** The most settings remembered; beyond, a key is read from MicroProfile Config each time. */
  static final int MAX_CACHED_SETTINGS = 1024;

  private volatile Function<String, Optional<String>> settings;

  /**
   * Validates a user name and password; called by Jakarta Security. Each setting is read from
   * MicroProfile Config once, at its first use: in a cluster Payara looks a key no other source has
   * up in its data grid, which must not sit in every request's way (nor stop logins while a member
   * does not answer).
   */
  public CredentialValidationResult validate(UsernamePasswordCredential credential) {
    Function<String, Optional<String>> current = settings;
    if (current == null) {
      current = cached(settings(ConfigProvider.getConfig()), MAX_CACHED_SETTINGS);
      settings = current;
    }
    return validate(current, credential.getCaller(), credential.getPasswordAsString());
  }

  /** {@code source}, each key's answer remembered, for at most {@code max} keys. */
  static Function<String, Optional<String>> cached(
      Function<String, Optional<String>> source, int max) {
    Map<String, Optional<String>> known = new ConcurrentHashMap<>();
    return key -> {
      Optional<String> value = known.get(key);
      if (value == null) {
        value = source.apply(key);
        if (known.size() < max) {
          known.putIfAbsent(key, value);
        }
      }
      return value;
    };
  }

  /**
   * The security settings: MicroProfile Config, then the default users. A key that the config
   * source with the highest ordinal sets to an empty value is empty here, not missing: setting a
   * default user's password to nothing disables that user, as documented.
   */
  static Function<String, Optional<String>> settings(Config config) {
    return withDefaults(
        key ->
            config
                .getOptionalValue(key, String.class)
                .or(() -> setEmpty(config, key) ? Optional.of("") : Optional.empty()));
  }

  /** Whether the first config source (highest ordinal first) that has {@code key} has it empty. */
  private static boolean setEmpty(Config config, String key) {
    for (ConfigSource source : config.getConfigSources()) {
      String value = source.getValue(key);
      if (value != null) {
        return value.isEmpty();
      }
    }
    return false;
  }

  static Function<String, Optional<String>> withDefaults(
      Function<String, Optional<String>> config) {
    return key -> config.apply(key).or(() -> Optional.ofNullable(DEFAULTS.get(key)));
  }

  /** The result for {@code user} and {@code password}, reading settings through {@code config}. */
  static CredentialValidationResult validate(
      Function<String, Optional<String>> config, String user, String password) {
    if (user == null || !USER_NAME.matcher(user).matches() || password == null) {
      return CredentialValidationResult.INVALID_RESULT;
    }
    Optional<String> expected = config.apply(PREFIX + user + ".password");
    if (expected.isEmpty()
        || expected.get().isEmpty()
        || !MessageDigest.isEqual(
            expected.get().getBytes(StandardCharsets.UTF_8),
            password.getBytes(StandardCharsets.UTF_8))) {
      return CredentialValidationResult.INVALID_RESULT;
    }
    return new CredentialValidationResult(user, groups(config, user));
  }

  static Set<String> groups(Function<String, Optional<String>> config, String user) {
    return config
        .apply(PREFIX + user + ".groups")
        .map(
            g ->
                Arrays.stream(g.split(","))
                    .map(String::trim)
                    .filter(s -> !s.isEmpty())
                    .collect(Collectors.toCollection(LinkedHashSet::new)))
        .map(s -> (Set<String>) s)
        .orElse(Set.of());
  }

  /** The default users the build packaged from {@code server-config/default-users.properties}. */
  private static Map<String, String> readDefaults() {
    try (InputStream in = ConfigIdentityStore.class.getResourceAsStream(DEFAULT_USERS)) {
      if (in == null) {
        throw new IllegalStateException(
            DEFAULT_USERS
                + " is missing next to "
                + ConfigIdentityStore.class.getName()
                + ": build the WAR with Maven, which copies it from server-config");
      }
      Properties properties = new Properties();
      properties.load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
      return properties.stringPropertyNames().stream()
          .collect(Collectors.toUnmodifiableMap(k -> k, properties::getProperty));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + DEFAULT_USERS, e);
    }
  }
}
