package io.taskgate.web.security;

import java.io.Serializable;
import java.util.Set;

/**
 * Who logged in through the login page, kept in the HTTP session so that the following page
 * requests are authenticated without the password.
 *
 * @param name the caller's name
 * @param groups the caller's groups, as the identity store returned them
 */
record SessionCaller(String name, Set<String> groups) implements Serializable {
  /** The session attribute that holds it. */
  static final String ATTRIBUTE = SessionCaller.class.getName();

  SessionCaller {
    groups = Set.copyOf(groups);
  }
}
