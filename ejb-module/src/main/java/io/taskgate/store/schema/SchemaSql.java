package io.taskgate.store.schema;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Logger;

/** The migrator's plain SQL: its lock, one instance at a time, and the repair script's runner. */
final class SchemaSql {
  private static final Logger LOG = Logger.getLogger(SchemaSql.class.getName());

  static final long LOCK_KEY = SchemaMigrator.LOCK_KEY;

  /** The lock on embedded H2, which one process uses. */
  private static final ReentrantLock LOCAL = new ReentrantLock();

  private SchemaSql() {}

  /**
   * Runs the statements of a script (each ends its last line with ';'; '--' lines are notes) one by
   * one, each committed on its own, and returns the failures: a statement that fails (an index on a
   * column the table lacks) leaves the rest to run, and the check that follows names what differs.
   */
  static List<String> run(Connection connection, ClassLoader loader, String resource)
      throws SQLException, IOException {
    String text;
    try (var in = loader.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("no " + resource + " on the class path");
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<String> failures = new ArrayList<>();
    connection.setAutoCommit(true);
    try (Statement s = connection.createStatement()) {
      StringBuilder statement = new StringBuilder();
      for (String line : text.split("\n")) {
        if (line.startsWith("--")) {
          continue;
        }
        statement.append(line).append('\n');
        if (line.stripTrailing().endsWith(";")) {
          String sql = statement.toString().strip();
          statement.setLength(0);
          try {
            s.execute(sql.substring(0, sql.length() - 1));
          } catch (SQLException e) {
            failures.add(firstLine(sql) + " failed: " + firstLine(e.getMessage()));
          }
        }
      }
    }
    return failures;
  }

  private static String firstLine(String text) {
    return text == null ? "" : text.lines().findFirst().orElse("");
  }

  static void lock(Connection connection, String database) throws SQLException {
    if (database.equals("postgresql")) {
      try (PreparedStatement s = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
        s.setLong(1, LOCK_KEY);
        try (ResultSet r = s.executeQuery()) {
          if (r.next() && r.getBoolean(1)) {
            return;
          }
        }
      }
      LOG.info("Another instance is migrating Taskgate's schema: this one waits for it");
      try (PreparedStatement s = connection.prepareStatement("SELECT pg_advisory_lock(?)")) {
        s.setLong(1, LOCK_KEY);
        s.execute();
      }
    } else {
      LOCAL.lock();
    }
  }

  static void unlock(Connection connection, String database) throws SQLException {
    if (database.equals("postgresql")) {
      try (PreparedStatement s = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
        s.setLong(1, LOCK_KEY);
        s.execute();
      }
    } else {
      LOCAL.unlock();
    }
  }
}
