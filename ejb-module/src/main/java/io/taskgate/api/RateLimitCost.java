package io.taskgate.api;

import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * Marks the parameter of a {@link RateLimited} method whose value is how many permits the call
 * takes (default, without one: 1): a call that sends 5 messages to an API allowing 100 a minute
 * takes 5. The parameter is an {@code int}, {@code long}, {@code short} or their wrappers (another
 * type, or two such parameters, fail the deployment, naming the method). A call is refused with
 * {@link IllegalArgumentException}, naming the method, the parameter and the value, when its cost
 * is null or below 1, or above the most one call may take (the limiter's burst or permit limit): it
 * could never be let through. A method with several limits takes the cost from each.
 *
 * <pre>{@code
 * @RateLimited(value = "mail-api", permits = 100, period = "PT1M")
 * public void send(@RateLimitKey String tenant, @RateLimitCost int messages) { … }
 * }</pre>
 */
@Documented
@Retention(RUNTIME)
@Target(PARAMETER)
public @interface RateLimitCost {}
