package io.taskgate.it.badlimit;

import io.taskgate.api.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;

/** A limited method whose key names a parameter it does not have. */
@ApplicationScoped
public class BadLimit {
  @RateLimited(permits = 5, key = "#{tenant.id}")
  public String quote(String user) {
    return user;
  }
}
