package io.taskgate.engine;

import jakarta.inject.Inject;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;

/**
 * Tells the engine that the WAR which carries this jar in {@code WEB-INF/lib} has initialised. The
 * container calls servlet context listeners after the observers of the WAR's {@code
 * Initialized(ApplicationScoped.class)} event, so the application's own start-up code has run
 * before any handler does. At the root of an EAR the jar is an EJB module and this listener is not
 * used.
 */
@WebListener
public class WebModuleStarted implements ServletContextListener {
  @Inject ConsumerStart consumers;

  @Override
  public void contextInitialized(ServletContextEvent event) {
    consumers.webInitialised(event.getServletContext().getContextPath());
  }
}
