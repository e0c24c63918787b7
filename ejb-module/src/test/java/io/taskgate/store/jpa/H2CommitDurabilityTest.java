package io.taskgate.store.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class H2CommitDurabilityTest {

  @TempDir Path dir;

  @Test
  void aFileDatabaseWithH2sDefaultDelayIsSetToWriteEveryCommitAndKeepsIt() throws Exception {
    String url = "jdbc:h2:" + dir.resolve("db").toAbsolutePath();
    try (Connection connection = DriverManager.getConnection(url, "sa", "")) {
      assertThat(writeDelay(connection)).isEqualTo(500);

      H2CommitDurability.Result result = H2CommitDurability.apply(connection);

      assertThat(result.changed()).isTrue();
      assertThat(result.before()).hasValue(500);
      assertThat(writeDelay(connection)).isZero();
      // a second start finds it set
      assertThat(H2CommitDurability.apply(connection).changed()).isFalse();
    }
    try (Connection reopened = DriverManager.getConnection(url, "sa", "")) {
      assertThat(writeDelay(reopened)).as("H2 keeps the setting in the file").isZero();
    }
  }

  @Test
  void anInMemoryDatabaseIsLeftAsItIs() throws Exception {
    try (Connection connection = DriverManager.getConnection("jdbc:h2:mem:durability", "sa", "")) {
      H2CommitDurability.Result result = H2CommitDurability.apply(connection);

      assertThat(result.changed()).isFalse();
      assertThat(result.before()).isEmpty();
      assertThat(result.database()).isEqualTo("H2");
    }
  }

  @Test
  void aLoginThatIsNotAnAdministratorCannotChangeItAndSaysSo() throws Exception {
    String url = "jdbc:h2:" + dir.resolve("users").toAbsolutePath();
    try (Connection admin = DriverManager.getConnection(url, "sa", "");
        Statement statement = admin.createStatement()) {
      statement.execute("CREATE USER app PASSWORD 'app'");
      try (Connection app = DriverManager.getConnection(url, "app", "app")) {
        assertThatThrownBy(() -> H2CommitDurability.apply(app)).isInstanceOf(SQLException.class);
      }
      assertThat(writeDelay(admin)).isEqualTo(500);
    }
  }

  private static int writeDelay(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS"
                    + " WHERE SETTING_NAME = 'WRITE_DELAY'")) {
      rows.next();
      return Integer.parseInt(rows.getString(1));
    }
  }
}
