package com.example.shop;

import io.taskgate.api.RateLimitedTask;
import io.taskgate.api.Task;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.UUID;

/**
 * Mail the invoice of a paid order. A task is a record: Taskgate stores it as JSON, checks its
 * constraints at dispatch and throttles it by its customer.
 */
public record SendInvoice(@NotNull UUID orderId, @NotBlank @Size(max = 100) String customer)
    implements Task, RateLimitedTask {

  /** Each customer has a budget of its own: one busy customer does not slow the others. */
  @Override
  public String rateLimitKey() {
    return customer;
  }
}
