package com.example.shop.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.AuthenticationStatus;
import jakarta.security.enterprise.authentication.mechanism.http.HttpAuthenticationMechanism;
import jakarta.security.enterprise.authentication.mechanism.http.HttpMessageContext;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStoreHandler;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The shop's own authentication: HTTP Basic (realm {@code shop}) against the shop's users ({@link
 * ShopUsers}).
 */
@ApplicationScoped
public class ShopAuthentication implements HttpAuthenticationMechanism {
  @Inject IdentityStoreHandler users;

  @Override
  public AuthenticationStatus validateRequest(
      HttpServletRequest request, HttpServletResponse response, HttpMessageContext context) {
    String header = request.getHeader("Authorization");
    if (header != null && header.regionMatches(true, 0, "Basic ", 0, 6)) {
      String[] login = decode(header.substring(6).trim());
      if (login != null) {
        CredentialValidationResult result =
            users.validate(new UsernamePasswordCredential(login[0], login[1]));
        if (result.getStatus() == CredentialValidationResult.Status.VALID) {
          return context.notifyContainerAboutLogin(result);
        }
      }
    }
    if (!context.isProtected()) {
      return context.doNothing();
    }
    response.setHeader("WWW-Authenticate", "Basic realm=\"shop\"");
    return context.responseUnauthorized();
  }

  private static String[] decode(String token) {
    try {
      String pair = new String(Base64.getDecoder().decode(token), StandardCharsets.UTF_8);
      int colon = pair.indexOf(':');
      return colon < 0 ? null : new String[] {pair.substring(0, colon), pair.substring(colon + 1)};
    } catch (IllegalArgumentException notBase64) {
      return null;
    }
  }
}
