package io.taskgate.engine.config;

import java.util.Optional;
import java.util.function.Function;

/**
 * A setting read from raw MicroProfile Config text: absent when the key is not set, else the
 * stripped text parsed, and a value that does not parse refused with a message naming the key, what
 * it must be and the text as given.
 */
public final class ConfigText {
  private ConfigText() {}

  /**
   * The value of {@code key}, or empty when {@code config} (a lookup of raw text by key) lacks it.
   *
   * @param parse turns the stripped text into the value; any exception it throws means the text is
   *     not valid
   * @param expected what the value must be, in the user's terms ("true or false")
   * @throws IllegalArgumentException {@code Configuration <key> must be <expected>, was '<text>'},
   *     caused by what {@code parse} threw
   */
  public static <T> Optional<T> parse(
      Function<String, Optional<String>> config,
      String key,
      Function<String, T> parse,
      String expected) {
    return config
        .apply(key)
        .map(
            text -> {
              try {
                return parse.apply(text.strip());
              } catch (RuntimeException e) {
                throw new IllegalArgumentException(
                    "Configuration " + key + " must be " + expected + ", was '" + text + "'", e);
              }
            });
  }
}
