package com.example.shop;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;

/**
 * The shop's own start-up code. Taskgate starts running handlers only after it, so a handler may
 * rely on what it prepares.
 */
@ApplicationScoped
public class ShopStartup {
  private volatile boolean done;

  void onStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
    // a real shop would warm its caches or check its mail server here
    done = true;
  }

  /** Whether the start-up code has run. */
  public boolean done() {
    return done;
  }
}
