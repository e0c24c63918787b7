package io.taskgate.web.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.AuthenticationStatus;
import jakarta.security.enterprise.authentication.mechanism.http.AuthenticationParameters;
import jakarta.security.enterprise.authentication.mechanism.http.HttpAuthenticationMechanism;
import jakarta.security.enterprise.authentication.mechanism.http.HttpMessageContext;
import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * Taskgate's authentication mechanism. Under {@code /api}: HTTP Basic on every request, stateless;
 * missing or wrong credentials on a protected resource answer 401 with {@code WWW-Authenticate:
 * Basic realm="taskgate"}, never a redirect. Everywhere else: form login, kept in the HTTP session;
 * an anonymous request for a protected page is redirected to the login page (a page's live refresh
 * gets 401 and {@code X-Taskgate-Session: ended} instead), which authenticates through {@link
 * jakarta.security.enterprise.SecurityContext#authenticate} with a {@link
 * UsernamePasswordCredential}. Credentials are checked by the identity stores of this web module
 * ({@link TaskgateIdentityStores}: {@link ConfigIdentityStore}, unless a deployment adds others),
 * never by the application's {@code IdentityStoreHandler}, which in an EAR belongs to the
 * application's own WARs as well. In an EAR each WAR has its own mechanism: this one serves only
 * Taskgate's web module.
 */
@ApplicationScoped
public class TaskgateAuthenticationMechanism implements HttpAuthenticationMechanism {
  /** The realm named in {@code WWW-Authenticate}. */
  static final String REALM = "taskgate";

  /** The login page, relative to the context root. */
  public static final String LOGIN_PAGE = "/login.xhtml";

  /** The session attribute holding the page to return to after login (context-relative). */
  static final String RETURN_TO = TaskgateAuthenticationMechanism.class.getName() + ".returnTo";

  /** The header of a refused live refresh whose session ended: {@code ended}. */
  static final String SESSION_HEADER = "X-Taskgate-Session";

  @Inject TaskgateIdentityStores identityStores;

  @Override
  public AuthenticationStatus validateRequest(
      HttpServletRequest request, HttpServletResponse response, HttpMessageContext context) {
    AuthenticationParameters parameters = context.getAuthParameters();
    Credential credential = parameters == null ? null : parameters.getCredential();
    if (credential != null) {
      return formLogin(request, context, credential);
    }
    if (isApi(request)) {
      return basic(request, response, context);
    }
    return page(request, response, context);
  }

  @Override
  public void cleanSubject(
      HttpServletRequest request, HttpServletResponse response, HttpMessageContext context) {
    HttpSession session = request.getSession(false);
    if (session != null) {
      session.removeAttribute(SessionCaller.ATTRIBUTE);
    }
    HttpAuthenticationMechanism.super.cleanSubject(request, response, context);
  }

  private AuthenticationStatus formLogin(
      HttpServletRequest request, HttpMessageContext context, Credential credential) {
    CredentialValidationResult result = identityStores.validate(credential);
    if (result.getStatus() != CredentialValidationResult.Status.VALID) {
      return AuthenticationStatus.SEND_FAILURE;
    }
    request.getSession(true);
    request.changeSessionId(); // no session fixation: a new id for the logged-in session
    request
        .getSession()
        .setAttribute(
            SessionCaller.ATTRIBUTE,
            new SessionCaller(result.getCallerPrincipal().getName(), result.getCallerGroups()));
    return context.notifyContainerAboutLogin(result);
  }

  private AuthenticationStatus page(
      HttpServletRequest request, HttpServletResponse response, HttpMessageContext context) {
    HttpSession session = request.getSession(false);
    Object caller = session == null ? null : session.getAttribute(SessionCaller.ATTRIBUTE);
    if (caller instanceof SessionCaller known) {
      return context.notifyContainerAboutLogin(known.name(), known.groups());
    }
    if (!context.isProtected()) {
      return context.doNothing();
    }
    if ("partial/ajax".equals(request.getHeader("Faces-Request"))) {
      // a page's live refresh after its session ended: no redirect to a login page the script
      // cannot show, but a 401 the page turns into a banner with a link to log in again
      response.setHeader(SESSION_HEADER, "ended");
      return context.responseUnauthorized();
    }
    if ("GET".equals(request.getMethod())) {
      String query = request.getQueryString();
      request
          .getSession(true)
          .setAttribute(RETURN_TO, path(request) + (query == null ? "" : "?" + query));
    }
    return context.redirect(request.getContextPath() + LOGIN_PAGE);
  }

  private AuthenticationStatus basic(
      HttpServletRequest request, HttpServletResponse response, HttpMessageContext context) {
    String header = request.getHeader("Authorization");
    if (header == null) {
      return context.isProtected() ? unauthorized(response, context) : context.doNothing();
    }
    Optional<UsernamePasswordCredential> credential = basicCredential(header);
    if (credential.isEmpty()) {
      return unauthorized(response, context);
    }
    CredentialValidationResult result = identityStores.validate(credential.get());
    if (result.getStatus() != CredentialValidationResult.Status.VALID) {
      return unauthorized(response, context);
    }
    return context.notifyContainerAboutLogin(result);
  }

  private static AuthenticationStatus unauthorized(
      HttpServletResponse response, HttpMessageContext context) {
    response.setHeader("WWW-Authenticate", "Basic realm=\"" + REALM + "\"");
    return context.responseUnauthorized();
  }

  /** The user and password of an {@code Authorization: Basic} header, if it is well formed. */
  static Optional<UsernamePasswordCredential> basicCredential(String header) {
    if (header.length() < 6 || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
      return Optional.empty();
    }
    String decoded;
    try {
      decoded =
          new String(
              Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    int colon = decoded.indexOf(':');
    if (colon < 0) {
      return Optional.empty();
    }
    return Optional.of(
        new UsernamePasswordCredential(decoded.substring(0, colon), decoded.substring(colon + 1)));
  }

  /** Whether the request is for the REST API (Basic only, no session, no redirect). */
  static boolean isApi(HttpServletRequest request) {
    String pathInfo = request.getPathInfo();
    String path = request.getServletPath() + (pathInfo == null ? "" : pathInfo);
    return path.equals("/api") || path.startsWith("/api/");
  }

  private static String path(HttpServletRequest request) {
    return request.getRequestURI().substring(request.getContextPath().length());
  }
}
