package io.taskgate.store.jpa;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * Makes an H2 database write every commit before the commit returns. H2's default {@code
 * WRITE_DELAY} of 500 ms writes committed transactions in the background, so a process killed
 * within that delay loses them, and with them tasks whose dispatch had returned and outcomes that
 * were reported. With {@code WRITE_DELAY 0} each commit is written to the file (the operating
 * system's cache) before it returns: it survives the process being killed, though not a power loss,
 * since H2 does not force the file to the disk on every commit.
 *
 * <p>H2 2.2 writes a commit only if no other thread is writing the store at that moment; a commit
 * that meets another one in progress is written with the next. {@link #checkpoint} closes that gap:
 * run after a commit, it waits for any write in progress and writes what is committed, so the store
 * runs it after each of its own commits before the write returns.
 *
 * <p>The setting is the database's (every connection shares it) and H2 keeps it in the file. Other
 * databases are left as they are; an in-memory H2 database has nothing to lose to a delay.
 */
final class H2CommitDurability {

  private H2CommitDurability() {}

  /**
   * What {@link #apply} did: {@code database} is the product name; {@code before} the write delay
   * found (empty if not H2 or in memory); {@code changed} whether it was set to 0.
   */
  record Result(String database, OptionalInt before, boolean changed) {}

  /**
   * Sets {@code WRITE_DELAY 0} on {@code connection}'s database if it is an H2 database on files
   * and the delay is not 0 already.
   *
   * @throws SQLException if the setting cannot be read or written (H2 requires an administrator)
   */
  static Result apply(Connection connection) throws SQLException {
    DatabaseMetaData meta = connection.getMetaData();
    String product = meta.getDatabaseProductName();
    if (!"H2".equalsIgnoreCase(product) || inMemory(meta.getURL())) {
      return new Result(product, OptionalInt.empty(), false);
    }
    int before = writeDelay(connection);
    if (before == 0) {
      return new Result(product, OptionalInt.of(0), false);
    }
    try (Statement statement = connection.createStatement()) {
      statement.execute("SET WRITE_DELAY 0");
    }
    int after = writeDelay(connection);
    if (after != 0) {
      throw new SQLException("H2 kept WRITE_DELAY " + after + " after SET WRITE_DELAY 0");
    }
    return new Result(product, OptionalInt.of(before), true);
  }

  /** Writes everything committed so far to the file ({@code CHECKPOINT}), waiting for any write. */
  static void checkpoint(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CHECKPOINT");
    }
  }

  /** Whether {@link #apply}'s result is a database on files that needs {@link #checkpoint}. */
  static boolean needsCheckpoint(Result result) {
    return result.before().isPresent();
  }

  private static boolean inMemory(String url) {
    String lower = url == null ? "" : url.toLowerCase(Locale.ROOT);
    return lower.startsWith("jdbc:h2:mem:");
  }

  private static int writeDelay(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS"
                    + " WHERE SETTING_NAME = 'WRITE_DELAY'")) {
      if (!rows.next()) {
        throw new SQLException("H2 has no WRITE_DELAY setting in INFORMATION_SCHEMA.SETTINGS");
      }
      return Integer.parseInt(rows.getString(1).trim());
    }
  }
}
