package io.taskgate.web.security;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TaskgateAuthenticationMechanismTest {

  private static String basic(String userAndPassword) {
    return "Basic "
        + Base64.getEncoder().encodeToString(userAndPassword.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void readsUserAndPasswordWhichMayContainAColon() {
    Optional<UsernamePasswordCredential> credential =
        TaskgateAuthenticationMechanism.basicCredential(basic("admin:pa:ss wörd"));

    assertThat(credential).isPresent();
    assertThat(credential.get().getCaller()).isEqualTo("admin");
    assertThat(credential.get().getPasswordAsString()).isEqualTo("pa:ss wörd");
  }

  @Test
  void theSchemeIsCaseInsensitive() {
    assertThat(
            TaskgateAuthenticationMechanism.basicCredential("bAsIc " + basic("a:b").substring(6)))
        .isPresent();
  }

  @ParameterizedTest
  @ValueSource(strings = {"Bearer abc", "Basic", "Basic !!!not-base64", "Basic YWRtaW4="})
  void malformedHeadersGiveNoCredential(String header) {
    // the last one is "admin" without a colon
    assertThat(TaskgateAuthenticationMechanism.basicCredential(header)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/admin/tasks.xhtml?status=QUEUED",
        "/admin/task.xhtml?id=3f1c2a7e-0000-4000-8000-000000000001"
      })
  void loginReturnsToASavedPageOfTheApplication(String saved) {
    assertThat(LoginBean.returnTo(saved)).isEqualTo(saved);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"//evil.example/x", "https://evil.example/", "/login.xhtml", "/a\r\nSet-Cookie"})
  void loginNeverReturnsOutsideTheApplicationNorToItself(String saved) {
    assertThat(LoginBean.returnTo(saved)).isEqualTo(LoginBean.HOME);
  }

  @Test
  void loginWithoutASavedPageGoesToTheOverview() {
    assertThat(LoginBean.returnTo(null)).isEqualTo("/admin/overview.xhtml");
  }

  @Test
  void csrfTokensMatchOnlyExactly() {
    assertThat(CsrfFilter.matches("abc", "abc")).isTrue();
    assertThat(CsrfFilter.matches("abc", "abd")).isFalse();
    assertThat(CsrfFilter.matches("abc", null)).isFalse();
    assertThat(CsrfFilter.matches("abc", "")).isFalse();
  }
}
