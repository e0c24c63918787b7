/**
 * JAX-RS for {@code @RateLimited} resource methods: a refusal answers 429 with {@code Retry-After}
 * and an {@code application/problem+json} body ({@link RateLimitExceededMapper}), and every limited
 * response carries the IETF {@code RateLimit-Policy} and {@code RateLimit} headers ({@link
 * RateLimitHeaders}). In a WAR holding {@code taskgate-ejb.jar} both are found by themselves; an
 * application in an EAR lists them in its {@code Application}'s classes.
 */
package io.taskgate.jaxrs;
