package io.taskgate.it.engine;

import io.taskgate.api.Limiter;
import io.taskgate.api.LimiterAlgorithm;
import io.taskgate.api.NamedRateLimiter;
import io.taskgate.api.RateLimitCost;
import io.taskgate.api.RateLimitKey;
import io.taskgate.api.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** {@code @RateLimited} calls for LimiterIT: a CDI bean's method and a JAX-RS resource method. */
public final class LimitedCalls {
  private LimitedCalls() {}

  /** A quote service allowing each user 5 quotes in any second. */
  @ApplicationScoped
  public static class Quotes {
    @RateLimited(
        value = "it-quotes",
        algorithm = LimiterAlgorithm.SLIDING_LOG,
        permits = 5,
        period = "PT1S")
    public String quote(@RateLimitKey String user, String sku) {
      return "quote for " + user + ": " + sku;
    }

    /** Ten messages a minute per tenant, in mailings of any size: each takes its messages. */
    @RateLimited(value = "it-mailings", permits = 10, period = "PT1M", burst = 10)
    public String mail(@RateLimitKey String tenant, @RateLimitCost int messages) {
      return messages + " messages for " + tenant;
    }

    /** Two per user and three for everybody, per minute. */
    @RateLimited(value = "it-per-user", permits = 2, period = "PT1M", burst = 2, key = "#{user}")
    @RateLimited(value = "it-everybody", permits = 3, period = "PT1M", burst = 3)
    public String both(String user) {
      return "both for " + user;
    }
  }

  /** Calls that wait for their permit: one every half second, waiting up to 3 s. */
  @ApplicationScoped
  public static class Waiting {
    @RateLimited(value = "it-waiting", permits = 2, period = "PT1S", burst = 1, maxWait = "PT3S")
    public String call(String id) {
      return id + " on " + Thread.currentThread().getName();
    }

    @RateLimited(
        value = "it-waiting-async",
        permits = 2,
        period = "PT1S",
        burst = 1,
        maxWait = "PT3S")
    public CompletionStage<String> callAsync(String id) {
      return CompletableFuture.completedFuture(id + " on " + Thread.currentThread().getName());
    }
  }

  /** A limiter defined in MicroProfile Config alone, used by a method and injected. */
  @ApplicationScoped
  public static class Configured {
    @Inject
    @Limiter(CONFIGURED)
    NamedRateLimiter limiter;

    @RateLimited(CONFIGURED)
    public String call() {
      return "ok";
    }

    public NamedRateLimiter limiter() {
      return limiter;
    }
  }

  /** The config-defined limiter's name (2 per minute, fixed window, in TestConfigSource). */
  public static final String CONFIGURED = "it-configured";

  /** The same limit per authenticated caller, over HTTP: {@code GET /api/it-limited/{sku}}. */
  @Path("it-limited")
  @RequestScoped
  public static class QuoteResource {
    @GET
    @Path("{sku}")
    @Produces(MediaType.APPLICATION_JSON)
    @RateLimited(
        value = "it-http-quotes",
        algorithm = LimiterAlgorithm.SLIDING_LOG,
        permits = 5,
        period = "PT1S",
        key = RateLimited.CALLER)
    public JsonObject quote(@PathParam("sku") String sku) {
      return Json.createObjectBuilder().add("quote", sku).build();
    }

    @Inject Configured configured;

    /** Calls the config-defined limiter's method: its refusal answers 429 too. */
    @POST
    @Path("configured")
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject configured() {
      return Json.createObjectBuilder().add("answer", configured.call()).build();
    }
  }
}
