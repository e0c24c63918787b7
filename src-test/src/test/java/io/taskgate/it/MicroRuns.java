package io.taskgate.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;

/** What the tests that run Payara Micro processes of their own share. */
final class MicroRuns {
  private MicroRuns() {}

  /**
   * Waits until the Taskgate on {@code port} answers {@code /api/info}; fails at once when the
   * process stops or the log shows that the application failed to deploy.
   */
  static void awaitAnswering(int port, Process process, Path log, Duration timeout)
      throws InterruptedException {
    URI info = URI.create("http://localhost:" + port + "/taskgate/api/info");
    try {
      Await.until(
          () -> {
            if (!process.isAlive()) {
              throw new AssertionError("Payara Micro stopped while booting: " + log);
            }
            if (Files.readString(log, StandardCharsets.UTF_8)
                .contains("Exception while loading the app")) {
              throw new AssertionError("the application failed to deploy: " + log);
            }
            try {
              HttpResponse<String> answer = Http.get(info);
              return answer.statusCode() == 200;
            } catch (IOException e) {
              return false; // not listening yet
            }
          },
          Boolean::booleanValue,
          timeout,
          Duration.ofMillis(250),
          seen -> "Payara Micro on port " + port + " did not answer: " + log);
    } catch (AssertionError e) {
      process.destroyForcibly();
      throw e;
    }
  }

  /** Whether something answers on {@code port} already (a process left over, say). */
  static boolean taken(int port) {
    try {
      Http.get(URI.create("http://localhost:" + port + "/taskgate/api/info"));
      return true;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }

  /** A connection to the local PostgreSQL database {@code db}. */
  static Connection connect(String db) throws Exception {
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:5432/" + db, "postgres", "postgres");
  }

  /** Drops and creates the local PostgreSQL database {@code db}. */
  static void recreateDatabase(String db) throws Exception {
    try (Connection connection = connect("postgres");
        Statement statement = connection.createStatement()) {
      statement.execute("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
      statement.execute("CREATE DATABASE " + db);
    }
  }

  /** Deletes {@code root} and everything under it, if it exists. */
  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (var paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
