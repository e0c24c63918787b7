package io.taskgate.jaxrs;

import io.taskgate.engine.limiter.LimitSpec;
import io.taskgate.engine.limiter.LimitedResponses;
import io.taskgate.engine.limiter.NamedLimiter;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.ext.Provider;
import java.time.Duration;

/**
 * Adds the IETF RateLimit headers to the response of every {@code @RateLimited} resource method,
 * granted or refused: {@code RateLimit-Policy: "<limiter>";q=<permits>;w=<window seconds>} and
 * {@code RateLimit: "<limiter>";r=<remaining>;t=<seconds until the quota is whole again>}.
 */
@Provider
@PreMatching
public class RateLimitHeaders implements ContainerRequestFilter, ContainerResponseFilter {

  @Override
  public void filter(ContainerRequestContext request) {
    LimitedResponses.clear();
  }

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    LimitedResponses.Call call = LimitedResponses.take();
    if (call == null) {
      return;
    }
    NamedLimiter limiter = call.limiter();
    LimitSpec spec = limiter.spec();
    long now = call.nanos(); // as the call was decided: what is left after it
    String name = '"' + limiter.name().replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    response
        .getHeaders()
        .putSingle(
            "RateLimit-Policy",
            name + ";q=" + spec.quota() + ";w=" + RateLimitExceededMapper.seconds(spec.period()));
    response
        .getHeaders()
        .putSingle(
            "RateLimit",
            name
                + ";r="
                + limiter.availablePermits(call.key(), now)
                + ";t="
                + RateLimitExceededMapper.seconds(
                    Duration.ofNanos(limiter.nanosUntilFull(call.key(), now))));
  }
}
