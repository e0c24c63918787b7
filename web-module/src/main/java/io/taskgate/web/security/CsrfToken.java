package io.taskgate.web.security;

import jakarta.enterprise.context.RequestScoped;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Named;
import jakarta.servlet.http.HttpSession;

/**
 * {@code #{csrf.token}} for the hidden field {@value CsrfFilter#FIELD} of every page form; {@link
 * CsrfFilter} checks it.
 */
@Named("csrf")
@RequestScoped
public class CsrfToken {
  /** The session's token (starts the session if there is none yet). */
  public String getToken() {
    HttpSession session =
        (HttpSession) FacesContext.getCurrentInstance().getExternalContext().getSession(true);
    return CsrfFilter.token(session);
  }

  /** The form field's name. */
  public String getField() {
    return CsrfFilter.FIELD;
  }
}
