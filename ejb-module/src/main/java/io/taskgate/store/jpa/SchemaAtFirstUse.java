package io.taskgate.store.jpa;

import io.taskgate.store.schema.SchemaException;
import io.taskgate.store.schema.SchemaMigrator;
import io.taskgate.store.schema.SchemaMode;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Brings the database to this build's schema, or checks it ({@value SchemaMigrator#MIGRATE_KEY}:
 * {@code auto}, {@code validate}, {@code none}), before the store is first used: every part of the
 * store is produced through {@link TaskStoreProducer}, which calls {@link #ensure()} first, so an
 * application bean that dispatches at its own start-up is covered as well as the engine. The work
 * runs once, on a thread of its own (outside any transaction of the caller: Flyway commits its own
 * steps); a refusal is thrown to every caller, and fails the deployment through the engine's start.
 */
@ApplicationScoped
public class SchemaAtFirstUse {
  private static final Logger LOG = Logger.getLogger(SchemaAtFirstUse.class.getName());

  /** The data source the persistence unit names. */
  @Resource(lookup = "jdbc/__default")
  DataSource dataSource;

  @Resource ManagedThreadFactory threads;

  @Inject
  @ConfigProperty(name = SchemaMigrator.MIGRATE_KEY, defaultValue = "auto")
  String mode;

  @Inject
  @ConfigProperty(name = SchemaMigrator.ALLOW_NEWER_KEY, defaultValue = "false")
  String allowNewer;

  private boolean done;
  private RuntimeException refused;

  /** Migrates or checks the schema the first time; later calls return, or throw the refusal. */
  public synchronized void ensure() {
    if (done) {
      if (refused != null) {
        throw refused;
      }
      return;
    }
    done = true;
    try {
      SchemaMode parsed = SchemaMode.parse(mode);
      boolean newer = parseBoolean(allowNewer);
      AtomicReference<Object> result = new AtomicReference<>();
      Thread thread =
          threads.newThread(
              () -> {
                try {
                  result.set(new SchemaMigrator(dataSource).apply(parsed, newer));
                } catch (RuntimeException e) {
                  result.set(e);
                }
              });
      thread.setName("taskgate-schema");
      thread.start();
      thread.join();
      if (result.get() instanceof RuntimeException e) {
        throw e;
      }
      LOG.info(((SchemaMigrator.Outcome) result.get()).summary());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      refused = new SchemaException("interrupted while Taskgate migrated its schema", e);
    } catch (RuntimeException e) {
      refused = e;
    }
    if (refused != null) {
      LOG.log(Level.SEVERE, refused.getMessage(), refused.getCause());
      throw refused;
    }
  }

  private static boolean parseBoolean(String value) {
    String v = value == null ? "" : value.strip();
    if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(v);
    }
    throw new SchemaException(
        SchemaMigrator.ALLOW_NEWER_KEY + " is \"" + value + "\": it must be true or false");
  }
}
