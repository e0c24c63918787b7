package com.example.shop;

import io.taskgate.api.DispatchOptions;
import io.taskgate.api.InvalidTaskException;
import io.taskgate.api.TaskDispatcher;
import io.taskgate.api.TaskReceipt;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.UUID;

/** {@code POST /api/orders} pays an order and queues its invoice; {@code GET} shows the invoice. */
@Path("orders")
@Produces(MediaType.APPLICATION_JSON)
public class OrderResource {
  @Inject TaskDispatcher dispatcher;
  @Inject Mailer mailer;

  /**
   * Body {@code {"customer": "…"}}: 202 with the order's id once its task is stored; 400 if the
   * task breaks its constraints (a blank customer).
   */
  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  public Response pay(JsonObject order) {
    UUID orderId = UUID.randomUUID();
    String customer = order.getString("customer", "");
    // one invoice per order, even if the order is paid twice: the task key replaces a queued one
    TaskReceipt receipt;
    try {
      receipt =
          dispatcher.dispatch(
              new SendInvoice(orderId, customer),
              DispatchOptions.now().withTaskKey("invoice-" + orderId));
    } catch (InvalidTaskException invalid) { // nothing was stored
      return Response.status(Response.Status.BAD_REQUEST)
          .entity(Json.createObjectBuilder().add("error", invalid.getMessage()).build())
          .build();
    }
    return Response.accepted(
            Json.createObjectBuilder()
                .add("orderId", orderId.toString())
                .add("taskId", receipt.taskId().toString())
                .build())
        .build();
  }

  /** 200 with the invoice once it has been sent, else 404. */
  @GET
  @Path("{orderId}/invoice")
  public Response invoice(@PathParam("orderId") UUID orderId) {
    return mailer
        .find(orderId)
        .map(
            sent ->
                Response.ok(
                        Json.createObjectBuilder()
                            .add("customer", sent.customer())
                            .add("attempt", sent.attempt())
                            .add("shopStarted", sent.shopStarted())
                            .build())
                    .build())
        .orElseGet(() -> Response.status(Response.Status.NOT_FOUND).build());
  }
}
