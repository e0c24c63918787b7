/**
 * JAX-RS for {@code @RateLimited} resource methods: a refusal answers 429 with {@code Retry-After}
 * and an {@code application/problem+json} body ({@link RateLimitExceededMapper}), and every limited
 * response carries the IETF {@code RateLimit-Policy} and {@code RateLimit} headers ({@link
 * RateLimitHeaders}). Both are found by themselves, in a WAR holding {@code taskgate-ejb.jar} and
 * in an EAR with {@code taskgate-ejb} as its EJB module.
 */
package io.taskgate.jaxrs;
