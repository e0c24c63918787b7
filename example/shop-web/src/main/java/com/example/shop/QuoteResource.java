package com.example.shop;

import io.taskgate.api.RateLimitKey;
import io.taskgate.api.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/quotes/{sku}}: a price quote, three a minute per product (a partner's quota): the
 * fourth answers 429 with {@code Retry-After}.
 */
@Path("quotes")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class QuoteResource {

  @GET
  @Path("{sku}")
  @RateLimited(value = "shop-quotes", permits = 3, period = "PT1M", burst = 3)
  public JsonObject quote(@RateLimitKey @PathParam("sku") String sku) {
    return Json.createObjectBuilder().add("sku", sku).add("price", 10 + sku.length()).build();
  }
}
