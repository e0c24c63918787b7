package io.taskgate.it.ledger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A handler's ledger: one line per event, appended with one write each (the kernel keeps it when
 * the process is killed), in the file named by the system property {@value #FILE}.
 */
public final class Ledger {
  /** The system property naming the ledger file. */
  public static final String FILE = "it.ledger";

  private static FileChannel channel;

  private Ledger() {}

  public static synchronized void write(String line) {
    try {
      if (channel == null) {
        channel =
            FileChannel.open(
                Path.of(System.getProperty(FILE)),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
      }
      ByteBuffer bytes = ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8));
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Marks {@code name} done, once across the processes that share the ledger's directory: true for
   * the first caller only.
   */
  public static boolean first(String name) {
    try {
      java.nio.file.Files.createFile(
          Path.of(System.getProperty(FILE)).resolveSibling("first-" + name));
      return true;
    } catch (java.nio.file.FileAlreadyExistsException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
