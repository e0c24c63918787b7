package com.example.shop;

import io.taskgate.api.Backoff;
import io.taskgate.api.Handler;
import io.taskgate.api.RateLimit;
import io.taskgate.api.TaskContext;
import io.taskgate.api.TaskHandler;
import jakarta.inject.Inject;

/**
 * Sends invoices: at most 2 a second per customer, evenly spaced; a failed attempt is tried again a
 * second later, three attempts in all. Every import is from {@code io.taskgate.api}.
 */
@TaskHandler(maxAttempts = 3, backoff = Backoff.FIXED, retryDelay = "PT1S")
@RateLimit(permits = 2, period = "PT1S", burst = 1)
public class SendInvoiceHandler implements Handler<SendInvoice> {
  @Inject Mailer mailer;

  @Override
  public void handle(SendInvoice task, TaskContext context) {
    mailer.send(task.orderId(), task.customer(), context.attempt());
  }
}
