package io.taskgate.web.security;

/**
 * The application's roles, each granted by the group of the same name (WEB-INF/glassfish-web.xml):
 * {@value #ADMIN} may do everything (the admin pages, every mutating request); {@value #VIEWER} may
 * read ({@code GET} under {@code /api}).
 */
public final class Roles {
  /** Everything. */
  public static final String ADMIN = "taskgate-admin";

  /** Read-only REST. */
  public static final String VIEWER = "taskgate-viewer";

  private Roles() {}
}
