package io.taskgate.web.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import jakarta.security.enterprise.identitystore.IdentityStore.ValidationType;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks a caller's credential against the identity stores this web module sees ({@link
 * ConfigIdentityStore}, and any a deployment adds to the module, its EAR's libraries or EJB
 * modules), the way Jakarta Security's {@code IdentityStoreHandler} does: by ascending {@link
 * IdentityStore#priority()}, the first store that validates the credential wins; its groups count
 * if it provides groups, and every store that only provides groups adds its own.
 *
 * <p>Why not the container's {@code IdentityStoreHandler}: on Payara there is one per application,
 * and it collects its stores from the first web module that uses it. In an EAR where Taskgate's web
 * module sits beside the application's own WAR, that handler would answer with Taskgate's users in
 * the other WAR, or with the other WAR's users here, depending on which module was asked first.
 * Taskgate leaves that handler to the application and keeps its own.
 */
@ApplicationScoped
public class TaskgateIdentityStores {
  private static final Comparator<IdentityStore> BY_PRIORITY =
      Comparator.comparingInt(IdentityStore::priority);

  @Inject @Any Instance<IdentityStore> stores;

  /** The result for {@code credential}: VALID with the caller's groups, or INVALID. */
  public CredentialValidationResult validate(Credential credential) {
    return validate(stores.stream().sorted(BY_PRIORITY).toList(), credential);
  }

  /** The result for {@code credential} against {@code stores}, highest priority first. */
  static CredentialValidationResult validate(List<IdentityStore> stores, Credential credential) {
    CredentialValidationResult valid = null;
    IdentityStore validator = null;
    for (IdentityStore store : stores) {
      if (store.validationTypes().contains(ValidationType.VALIDATE)) {
        CredentialValidationResult result = store.validate(credential);
        if (result.getStatus() == CredentialValidationResult.Status.VALID) {
          valid = result;
          validator = store;
          break;
        }
      }
    }
    if (valid == null) {
      return CredentialValidationResult.INVALID_RESULT;
    }
    Set<String> groups = new LinkedHashSet<>();
    if (validator.validationTypes().contains(ValidationType.PROVIDE_GROUPS)) {
      groups.addAll(valid.getCallerGroups());
    }
    for (IdentityStore store : stores) {
      if (store.validationTypes().equals(Set.of(ValidationType.PROVIDE_GROUPS))) {
        groups.addAll(store.getCallerGroups(valid));
      }
    }
    return new CredentialValidationResult(
        valid.getIdentityStoreId(),
        valid.getCallerPrincipal(),
        valid.getCallerDn(),
        valid.getCallerUniqueId(),
        groups);
  }
}
