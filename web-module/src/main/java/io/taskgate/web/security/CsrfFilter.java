package io.taskgate.web.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Protects every page action against cross-site request forgery: a POST to a Faces page must carry
 * the session's token in the form field {@value #FIELD} (every form renders it, see {@link
 * CsrfToken}), otherwise it is refused with 403 before Faces sees it. The token is 32 random bytes
 * per HTTP session.
 */
@WebFilter(urlPatterns = "*.xhtml")
public class CsrfFilter extends HttpFilter {
  /** The form field that carries the token. */
  public static final String FIELD = "_csrf";

  private static final String ATTRIBUTE = CsrfFilter.class.getName() + ".token";
  private static final SecureRandom RANDOM = new SecureRandom();

  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if ("POST".equals(request.getMethod())) {
      if (request.getCharacterEncoding() == null) {
        request.setCharacterEncoding(StandardCharsets.UTF_8.name());
      }
      HttpSession session = request.getSession(false);
      Object expected = session == null ? null : session.getAttribute(ATTRIBUTE);
      if (!(expected instanceof String token) || !matches(token, request.getParameter(FIELD))) {
        response.sendError(
            HttpServletResponse.SC_FORBIDDEN, "The form has expired: reload the page.");
        return;
      }
    }
    chain.doFilter(request, response);
  }

  /** The token of {@code session}, made on first use. */
  static String token(HttpSession session) {
    synchronized (session) {
      Object token = session.getAttribute(ATTRIBUTE);
      if (token instanceof String existing) {
        return existing;
      }
      byte[] bytes = new byte[32];
      RANDOM.nextBytes(bytes);
      String made = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
      session.setAttribute(ATTRIBUTE, made);
      return made;
    }
  }

  static boolean matches(String expected, String sent) {
    return sent != null
        && MessageDigest.isEqual(
            expected.getBytes(StandardCharsets.US_ASCII), sent.getBytes(StandardCharsets.UTF_8));
  }
}
