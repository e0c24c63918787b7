package io.taskgate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** No main class of the EJB or the web module is longer than {@value #MAX_LINES} lines. */
class SourceSizeTest {
  static final int MAX_LINES = 400;

  /** The Java files under {@code root} longer than {@code max} lines, with their length. */
  static List<String> tooLong(Path root, int max) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(f -> f.toString().endsWith(".java"))
          .map(f -> f + ": " + lines(f))
          .filter(entry -> Long.parseLong(entry.substring(entry.lastIndexOf(' ') + 1)) > max)
          .sorted()
          .toList();
    }
  }

  private static long lines(Path file) {
    try (Stream<String> lines = Files.lines(file)) {
      return lines.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void noMainClassIsLongerThanTheLimit() throws IOException {
    Path ejb = Path.of("src/main/java");
    Path web = Path.of("../web-module/src/main/java");
    assertThat(Files.isDirectory(ejb) && Files.isDirectory(web)).as("run from ejb-module").isTrue();

    assertThat(tooLong(ejb, MAX_LINES)).isEmpty();
    assertThat(tooLong(web, MAX_LINES)).isEmpty();
  }

  @Test
  void aFileOverTheLimitIsFound(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("Short.java"), "x\n".repeat(MAX_LINES));
    Files.writeString(dir.resolve("Long.java"), "x\n".repeat(MAX_LINES + 1));

    assertThat(tooLong(dir, MAX_LINES)).containsExactly(dir.resolve("Long.java") + ": 401");
  }
}
