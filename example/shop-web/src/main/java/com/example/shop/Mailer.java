package com.example.shop;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/** Stands in for a mail server: remembers what it sent, so that the shop can show it. */
@ApplicationScoped
public class Mailer {
  /** An invoice sent: to whom, on which attempt, and whether the shop had finished starting. */
  public record Sent(UUID orderId, String customer, int attempt, boolean shopStarted) {}

  @Inject ShopStartup startup;

  private final Map<UUID, Sent> sent = new ConcurrentHashMap<>();

  void send(UUID orderId, String customer, int attempt) {
    sent.put(orderId, new Sent(orderId, customer, attempt, startup.done()));
  }

  /** The invoice of an order, once it has been sent. */
  public Optional<Sent> find(UUID orderId) {
    return Optional.ofNullable(sent.get(orderId));
  }
}
