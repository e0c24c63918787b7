package io.taskgate.engine.admin;

import java.util.Locale;

/** The names of the admin filters' constants as query strings write them. */
final class Named {
  private Named() {}

  /** {@code REJECTED_DISCARDED} as {@code rejected-discarded}. */
  static String param(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * The constant {@code text} names, in any case, with '-' or '_' between words.
   *
   * @throws IllegalArgumentException with {@code expected} and the text, if it names none
   */
  static <E extends Enum<E>> E parse(E[] constants, String text, String expected) {
    String wanted = text == null ? "" : text.strip().toUpperCase(Locale.ROOT).replace('-', '_');
    for (E constant : constants) {
      if (constant.name().equals(wanted)) {
        return constant;
      }
    }
    throw new IllegalArgumentException(expected + ", was '" + text + "'");
  }
}
