package io.taskgate.web.security;

/**
 * The roles of Taskgate. WEB-INF/web.xml and WEB-INF/glassfish-web.xml name the same roles in their
 * constraints and group mappings.
 */
public final class Roles {
  /** May open the admin pages and change tasks. */
  public static final String ADMIN = "admin";

  private Roles() {}
}
