package io.taskgate.store.schema;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A data source that opens a new connection to a JDBC URL for each call, for tests; counts the
 * connections it opened.
 */
public record UrlDataSource(String url, String user, AtomicInteger opened) implements DataSource {

  public UrlDataSource(String url, String user) {
    this(url, user, new AtomicInteger());
  }

  /** Brings the database at {@code url} to this build's schema, as the container does. */
  public static SchemaMigrator.Outcome migrate(String url, String user) {
    return new SchemaMigrator(new UrlDataSource(url, user)).apply(SchemaMode.AUTO, false);
  }

  @Override
  public Connection getConnection() throws SQLException {
    opened.incrementAndGet();
    return DriverManager.getConnection(url, user, "");
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return DriverManager.getConnection(url, username, password);
  }

  @Override
  public PrintWriter getLogWriter() {
    return null;
  }

  @Override
  public void setLogWriter(PrintWriter out) {}

  @Override
  public void setLoginTimeout(int seconds) {}

  @Override
  public int getLoginTimeout() {
    return 0;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    throw new SQLException("not a wrapper");
  }

  @Override
  public boolean isWrapperFor(Class<?> type) {
    return false;
  }
}
