package io.taskgate.engine.cluster.grid;

import com.hazelcast.map.IMap;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.function.Function;

/**
 * Entries of a grid map of bytes, each decoded into a state {@code S}, changed, and written back
 * with the grid's own compare-and-set ({@code replace(key, old, new)}, {@code putIfAbsent} for a
 * new key, {@code remove(key, old)} for a state that became empty), retried while another instance
 * changed it in between: the grid runs only its own code, on bytes.
 *
 * @param <S> the state an entry holds
 */
final class GridEntries<S> {
  /** How many times in a row an entry's compare-and-set may lose to other instances. */
  static final int MAX_ATTEMPTS = 100;

  /** Reads a state from its bytes. */
  interface Reader<S> {
    S read(DataInput in) throws IOException;
  }

  /** Writes a state as bytes. */
  interface Writer<S> {
    void write(S state, DataOutput out) throws IOException;
  }

  private final IMap<String, byte[]> map;
  private final Reader<S> reader;
  private final Writer<S> writer;
  private final Function<S, Boolean> empty;
  private final java.util.function.Supplier<S> fresh;

  /**
   * @param map the grid map
   * @param fresh the state of a key the map does not have
   * @param reader reads a stored state
   * @param writer writes a state
   * @param empty whether a state holds nothing, so that its entry is removed
   */
  GridEntries(
      IMap<String, byte[]> map,
      java.util.function.Supplier<S> fresh,
      Reader<S> reader,
      Writer<S> writer,
      Function<S, Boolean> empty) {
    this.map = map;
    this.fresh = fresh;
    this.reader = reader;
    this.writer = writer;
    this.empty = empty;
  }

  /** Changes {@code key}'s state with {@code change}; returns what it answered. */
  <T> T update(String key, Function<S, T> change) {
    for (int attempt = 1; ; attempt++) {
      byte[] old = map.get(key);
      S state = decode(old);
      T answer = change.apply(state);
      byte[] next = empty.apply(state) ? null : encode(state);
      if (Arrays.equals(old, next) || written(key, old, next)) {
        return answer;
      }
      if (attempt == MAX_ATTEMPTS) {
        throw new IllegalStateException(
            "the grid entry " + key + " changed under " + MAX_ATTEMPTS + " attempts in a row");
      }
    }
  }

  private boolean written(String key, byte[] old, byte[] next) {
    if (old == null) {
      return map.putIfAbsent(key, next) == null;
    }
    return next == null ? map.remove(key, old) : map.replace(key, old, next);
  }

  /** {@code key}'s state as stored (a fresh one if the map has none). */
  S get(String key) {
    return decode(map.get(key));
  }

  /** The state {@code bytes} hold; a fresh one for null. */
  S decode(byte[] bytes) {
    if (bytes == null) {
      return fresh.get();
    }
    try {
      return reader.read(new DataInputStream(new ByteArrayInputStream(bytes)));
    } catch (IOException e) {
      throw new UncheckedIOException("a grid entry of " + map.getName() + " is not readable", e);
    }
  }

  private byte[] encode(S state) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      writer.write(state, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** The map. */
  IMap<String, byte[]> map() {
    return map;
  }
}
