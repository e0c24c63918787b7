package io.taskgate.api;

import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * Marks the parameter of a {@link RateLimited} method whose value is the call's key: each distinct
 * value ({@code String.valueOf}) keeps its own budget. A {@code null} argument is the key {@code
 * "null"}.
 *
 * <pre>{@code
 * @RateLimited(permits = 5, period = "PT1S")
 * public Quote quote(@RateLimitKey String tenant, String sku) { … }
 * }</pre>
 */
@Documented
@Retention(RUNTIME)
@Target(PARAMETER)
public @interface RateLimitKey {}
