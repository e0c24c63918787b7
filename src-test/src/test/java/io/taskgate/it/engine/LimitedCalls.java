package io.taskgate.it.engine;

import io.taskgate.api.LimiterAlgorithm;
import io.taskgate.api.RateLimitKey;
import io.taskgate.api.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

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
  }

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
  }
}
