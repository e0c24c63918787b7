package com.example.shop.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The shop's one user, {@code clerk} (group and role {@code clerk}), password from configuration.
 */
@ApplicationScoped
public class ShopUsers implements IdentityStore {
  @Inject
  @ConfigProperty(name = "shop.clerk.password", defaultValue = "clerk")
  String clerkPassword;

  @Override
  public CredentialValidationResult validate(Credential credential) {
    if (credential instanceof UsernamePasswordCredential login
        && login.getCaller().equals("clerk")
        && !clerkPassword.isEmpty()
        && MessageDigest.isEqual(
            login.getPasswordAsString().getBytes(StandardCharsets.UTF_8),
            clerkPassword.getBytes(StandardCharsets.UTF_8))) {
      return new CredentialValidationResult("clerk", Set.of("clerk"));
    }
    return CredentialValidationResult.INVALID_RESULT;
  }
}
