package io.taskgate.web.security;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.CredentialValidationResult.Status;
import jakarta.security.enterprise.identitystore.IdentityStore;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TaskgateIdentityStoresTest {
  private static final UsernamePasswordCredential ANNA =
      new UsernamePasswordCredential("anna", "pw");

  /** A store that knows one user and password, with groups; validation types as given. */
  private record Users(
      String user, String password, Set<String> groups, Set<ValidationType> validationTypes)
      implements IdentityStore {
    @Override
    public CredentialValidationResult validate(Credential credential) {
      return credential instanceof UsernamePasswordCredential login
              && login.getCaller().equals(user)
              && login.getPasswordAsString().equals(password)
          ? new CredentialValidationResult(user, groups)
          : CredentialValidationResult.INVALID_RESULT;
    }

    @Override
    public Set<ValidationType> validationTypes() {
      return validationTypes;
    }
  }

  /** A store that only adds groups. */
  private record Groups(Set<String> groups) implements IdentityStore {
    @Override
    public Set<String> getCallerGroups(CredentialValidationResult result) {
      return groups;
    }

    @Override
    public Set<ValidationType> validationTypes() {
      return Set.of(ValidationType.PROVIDE_GROUPS);
    }
  }

  private static Users both(String user, String password, String... groups) {
    return new Users(user, password, Set.of(groups), IdentityStore.DEFAULT_VALIDATION_TYPES);
  }

  @Test
  void theFirstStoreThatValidatesWinsWithItsGroups() {
    CredentialValidationResult result =
        TaskgateIdentityStores.validate(
            List.of(both("bob", "pw", "x"), both("anna", "pw", "ops"), both("anna", "pw", "other")),
            ANNA);

    assertThat(result.getStatus()).isEqualTo(Status.VALID);
    assertThat(result.getCallerPrincipal().getName()).isEqualTo("anna");
    assertThat(result.getCallerGroups()).containsExactly("ops");
  }

  @Test
  void noStoreThatValidatesIsInvalid() {
    assertThat(
            TaskgateIdentityStores.validate(
                    List.of(both("anna", "other", "ops"), new Groups(Set.of("admin"))), ANNA)
                .getStatus())
        .isEqualTo(Status.INVALID);
    assertThat(TaskgateIdentityStores.validate(List.of(), ANNA).getStatus())
        .isEqualTo(Status.INVALID);
  }

  @Test
  void storesThatOnlyProvideGroupsAddThemAndAStoreThatOnlyValidatesGivesNone() {
    Users validatesOnly =
        new Users("anna", "pw", Set.of("ignored"), Set.of(IdentityStore.ValidationType.VALIDATE));

    CredentialValidationResult result =
        TaskgateIdentityStores.validate(
            List.of(new Groups(Set.of("taskgate-admin")), validatesOnly), ANNA);

    assertThat(result.getStatus()).isEqualTo(Status.VALID);
    assertThat(result.getCallerGroups()).containsExactly("taskgate-admin");
  }

  @Test
  void aStoreThatOnlyProvidesGroupsNeverValidates() {
    assertThat(
            TaskgateIdentityStores.validate(List.of(new Groups(Set.of("taskgate-admin"))), ANNA)
                .getStatus())
        .isEqualTo(Status.INVALID);
  }
}
