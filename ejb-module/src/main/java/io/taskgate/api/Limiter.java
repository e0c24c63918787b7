package io.taskgate.api;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.enterprise.util.Nonbinding;
import jakarta.inject.Qualifier;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * Injects a named limiter for code that wants to ask it directly:
 * {@code @Inject @Limiter("partner-api") NamedRateLimiter partner;}. The limiter is the one {@link
 * RateLimited} methods of that name use (they share its budget), or one defined by MicroProfile
 * Config alone ({@code taskgate.limiter.<name>.permits} and the other options of {@link
 * RateLimited}). An injection point naming a limiter defined nowhere fails the deployment.
 */
@Qualifier
@Documented
@Retention(RUNTIME)
@Target({FIELD, METHOD, PARAMETER})
public @interface Limiter {
  /** The limiter's name. */
  @Nonbinding
  String value();
}
