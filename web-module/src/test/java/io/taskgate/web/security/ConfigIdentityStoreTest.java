package io.taskgate.web.security;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.CredentialValidationResult.Status;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigIdentityStoreTest {
  private static final Map<String, String> SETTINGS =
      Map.of(
          "taskgate.security.user.admin.password", "s3cret",
          "taskgate.security.user.admin.groups", "admin, ops ,",
          "taskgate.security.user.viewer.password", "look",
          "taskgate.security.user.off.password", "");
  private static final Function<String, Optional<String>> CONFIG =
      key -> Optional.ofNullable(SETTINGS.get(key));

  @ParameterizedTest
  @CsvSource(
      nullValues = "NULL",
      value = {
        "NULL, NULL, admin, taskgate, VALID",
        "NULL, NULL, admin, wrong, INVALID",
        "changed, NULL, admin, taskgate, INVALID",
        "changed, NULL, admin, changed, VALID",
        "'', NULL, admin, taskgate, INVALID",
        "changed, ops, admin, changed, VALID",
      })
  void userAdminHasDefaultsThatConfigOverrides(
      String password, String groups, String user, String given, Status status) {
    Map<String, String> settings = new java.util.HashMap<>();
    if (password != null) {
      settings.put("taskgate.security.user.admin.password", password);
    }
    if (groups != null) {
      settings.put("taskgate.security.user.admin.groups", groups);
    }

    CredentialValidationResult result =
        ConfigIdentityStore.validate(
            ConfigIdentityStore.withDefaults(k -> Optional.ofNullable(settings.get(k))),
            user,
            given);

    assertThat(result.getStatus()).isEqualTo(status);
    if (status == Status.VALID) {
      assertThat(result.getCallerGroups()).containsExactly(groups == null ? Roles.ADMIN : groups);
    }
  }

  @ParameterizedTest
  @CsvSource({
    "viewer, taskgate-viewer, VALID, taskgate-viewer",
    "viewer, taskgate, INVALID, ''",
    "admin, taskgate, VALID, taskgate-admin",
  })
  void theDefaultUsersComeFromServerConfig(
      String user, String password, Status status, String groups) {
    CredentialValidationResult result =
        ConfigIdentityStore.validate(
            ConfigIdentityStore.withDefaults(k -> Optional.empty()), user, password);

    assertThat(result.getStatus()).isEqualTo(status);
    if (status == Status.VALID) {
      assertThat(result.getCallerGroups()).containsExactly(groups);
    }
  }

  @ParameterizedTest
  @CsvSource(
      nullValues = "NULL",
      value = {
        "admin, s3cret, VALID, 'admin,ops'",
        "viewer, look, VALID, ''",
        "admin, S3cret, INVALID, ''",
        "admin, '', INVALID, ''",
        "nobody, s3cret, INVALID, ''",
        "off, '', INVALID, ''",
        "'admin.password', s3cret, INVALID, ''",
        "NULL, s3cret, INVALID, ''",
        "admin, NULL, INVALID, ''",
      })
  void usersComeFromConfig(String user, String password, Status status, String groups) {
    CredentialValidationResult result = ConfigIdentityStore.validate(CONFIG, user, password);

    assertThat(result.getStatus()).isEqualTo(status);
    if (status == Status.VALID) {
      assertThat(result.getCallerPrincipal().getName()).isEqualTo(user);
      assertThat(String.join(",", new java.util.TreeSet<>(result.getCallerGroups())))
          .isEqualTo(groups);
    }
  }

  @Test
  void eachSettingIsReadOnceAndAtMostTheCapIsRemembered() {
    java.util.concurrent.atomic.AtomicInteger reads =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.function.Function<String, java.util.Optional<String>> settings =
        ConfigIdentityStore.cached(
            key -> {
              reads.incrementAndGet();
              return java.util.Optional.of(key + "!");
            },
            2);
    assertThat(settings.apply("a")).contains("a!");
    assertThat(settings.apply("a")).contains("a!");
    assertThat(reads).hasValue(1);
    settings.apply("b");
    settings.apply("c");
    settings.apply("c");
    assertThat(reads).hasValue(4); // "c" is beyond the cap: read each time
  }
}
