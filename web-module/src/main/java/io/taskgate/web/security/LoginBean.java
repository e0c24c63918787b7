package io.taskgate.web.security;

import jakarta.enterprise.context.RequestScoped;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.ExternalContext;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.security.enterprise.AuthenticationStatus;
import jakarta.security.enterprise.SecurityContext;
import jakarta.security.enterprise.authentication.mechanism.http.AuthenticationParameters;
import jakarta.security.enterprise.credential.Password;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;

/**
 * The login page's form and the logout action. A successful login returns to the page that sent the
 * caller to the login page, or to the overview.
 */
@Named("login")
@RequestScoped
public class LoginBean {
  static final String HOME = "/admin/overview.xhtml";

  @Inject SecurityContext securityContext;

  private String username;
  private String password;

  /** Checks the credentials; on success redirects, otherwise shows an error on the page. */
  public void login() throws IOException {
    FacesContext faces = FacesContext.getCurrentInstance();
    ExternalContext external = faces.getExternalContext();
    HttpServletRequest request = (HttpServletRequest) external.getRequest();
    AuthenticationStatus status =
        securityContext.authenticate(
            request,
            (HttpServletResponse) external.getResponse(),
            AuthenticationParameters.withParams()
                .newAuthentication(true)
                .credential(
                    new UsernamePasswordCredential(
                        username == null ? "" : username,
                        new Password(password == null ? "" : password))));
    password = null;
    if (status == AuthenticationStatus.SUCCESS) {
      HttpSession session = request.getSession();
      Object target = session.getAttribute(TaskgateAuthenticationMechanism.RETURN_TO);
      session.removeAttribute(TaskgateAuthenticationMechanism.RETURN_TO);
      external.redirect(external.getRequestContextPath() + returnTo(target));
    } else if (status == AuthenticationStatus.SEND_CONTINUE) {
      faces.responseComplete();
    } else {
      faces.addMessage(
          null,
          new FacesMessage(FacesMessage.SEVERITY_ERROR, "Wrong user name or password.", null));
    }
  }

  /** Logs out, ends the session and shows the login page. */
  public void logout() throws IOException, ServletException {
    ExternalContext external = FacesContext.getCurrentInstance().getExternalContext();
    ((HttpServletRequest) external.getRequest()).logout();
    external.invalidateSession();
    external.redirect(
        external.getRequestContextPath() + TaskgateAuthenticationMechanism.LOGIN_PAGE + "?out");
  }

  /** Where to go after login: a saved page of this application, or the overview. */
  static String returnTo(Object saved) {
    if (saved instanceof String path
        && path.startsWith("/")
        && !path.startsWith("//")
        && !path.startsWith(TaskgateAuthenticationMechanism.LOGIN_PAGE)
        && path.chars().noneMatch(c -> c < 0x20 || c == '\\')) {
      return path;
    }
    return HOME;
  }

  /** Whether the caller has the role {@link Roles#ADMIN}: may change tasks. */
  public boolean isAdmin() {
    return securityContext.isCallerInRole(Roles.ADMIN);
  }

  /** The caller's name, or null when nobody is logged in. */
  public String getCaller() {
    return securityContext.getCallerPrincipal() == null
        ? null
        : securityContext.getCallerPrincipal().getName();
  }

  public String getUsername() {
    return username;
  }

  public void setUsername(String username) {
    this.username = username;
  }

  public String getPassword() {
    return password;
  }

  public void setPassword(String password) {
    this.password = password;
  }
}
