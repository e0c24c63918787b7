package io.taskgate.store;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * What an instance had parked at its last heartbeat, for the views of its peers (parked tasks live
 * in the memory of the instance that parked them): how many tasks over how many keys, and the
 * {@link #MAX_KEYS} keys with the most parked tasks.
 *
 * @param tasks tasks parked
 * @param keys (scope, key) pairs with parked tasks
 * @param top the keys with the most parked tasks, most first, at most {@link #MAX_KEYS}
 */
public record ParkedSummary(int tasks, int keys, List<Key> top) {
  /** How many keys a summary lists. */
  public static final int MAX_KEYS = 100;

  /** Nothing parked. */
  public static final ParkedSummary NONE = new ParkedSummary(0, 0, List.of());

  private static final String VERSION = "p1";

  /**
   * One key's parked tasks.
   *
   * @param scope the budget's scope (the task type)
   * @param key the throttling key
   * @param tasks its parked tasks
   * @param latestSlot the latest slot one of them is parked until
   */
  public record Key(String scope, String key, int tasks, Instant latestSlot) {
    /** Checks the fields. */
    public Key {
      Objects.requireNonNull(scope, "scope");
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(latestSlot, "latestSlot");
    }
  }

  /** Checks the fields and keeps at most {@link #MAX_KEYS} of {@code top}. */
  public ParkedSummary {
    if (tasks < 0 || keys < 0) {
      throw new IllegalArgumentException("negative count: " + tasks + " tasks, " + keys + " keys");
    }
    top = List.copyOf(top.size() > MAX_KEYS ? top.subList(0, MAX_KEYS) : top);
  }

  /** The summary of {@code keys} (every key with parked tasks, in any order). */
  public static ParkedSummary of(List<Key> keys) {
    int tasks = keys.stream().mapToInt(Key::tasks).sum();
    List<Key> sorted = new ArrayList<>(keys);
    sorted.sort(
        Comparator.comparingInt(Key::tasks)
            .reversed()
            .thenComparing(Key::scope)
            .thenComparing(Key::key));
    return new ParkedSummary(tasks, keys.size(), sorted);
  }

  /** The keys with parked tasks that {@link #top} leaves out. */
  public int unlistedKeys() {
    return keys - top.size();
  }

  /**
   * As text for the instance's row: a line {@code p1 <tasks> <keys>}, then per listed key {@code
   * <tasks> <latest slot, epoch ms> <scope> <key>}, scope and key URL-encoded.
   */
  public String encode() {
    StringBuilder text = new StringBuilder(32 + top.size() * 48);
    text.append(VERSION).append(' ').append(tasks).append(' ').append(keys);
    for (Key key : top) {
      text.append('\n')
          .append(key.tasks())
          .append(' ')
          .append(key.latestSlot().toEpochMilli())
          .append(' ')
          .append(URLEncoder.encode(key.scope(), StandardCharsets.UTF_8))
          .append(' ')
          .append(URLEncoder.encode(key.key(), StandardCharsets.UTF_8));
    }
    return text.toString();
  }

  /**
   * The summary {@link #encode} wrote; {@link #NONE} for null or empty text (a row from before the
   * summary existed).
   *
   * @throws IllegalArgumentException if the text is not such a summary
   */
  public static ParkedSummary decode(String text) {
    if (text == null || text.isEmpty()) {
      return NONE;
    }
    String[] lines = text.split("\n");
    String[] head = lines[0].split(" ");
    if (head.length != 3 || !head[0].equals(VERSION)) {
      throw new IllegalArgumentException("not a parked summary: '" + lines[0] + "'");
    }
    List<Key> top = new ArrayList<>(lines.length - 1);
    for (int i = 1; i < lines.length; i++) {
      String[] f = lines[i].split(" ", -1);
      if (f.length != 4) {
        throw new IllegalArgumentException("not a parked key: '" + lines[i] + "'");
      }
      top.add(
          new Key(
              URLDecoder.decode(f[2], StandardCharsets.UTF_8),
              URLDecoder.decode(f[3], StandardCharsets.UTF_8),
              Integer.parseInt(f[0]),
              Instant.ofEpochMilli(Long.parseLong(f[1]))));
    }
    return new ParkedSummary(Integer.parseInt(head[1]), Integer.parseInt(head[2]), top);
  }
}
