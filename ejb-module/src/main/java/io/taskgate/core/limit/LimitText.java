package io.taskgate.core.limit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.IntUnaryOperator;
import java.util.regex.Pattern;

/**
 * Reads a limit and the options around it from named text options: an annotation's values,
 * MicroProfile Config keys, the fields of a JSON body. Sources are layered, the last one added
 * winning for each option it gives (config over an annotation). A value that does not read, or a
 * required option that no layer gives, is an {@link InvalidLimitException} worded by the source
 * that gave it ({@link LimitSource}): where, which option, which value, what was expected.
 *
 * <p>Text is read alike everywhere: whole numbers in decimal; durations in ISO-8601 ({@code PT1S});
 * constants by name in any case, with {@code -} for {@code _} ({@code token-bucket}); surrounding
 * blanks ignored.
 */
public final class LimitText {
  /** What a whole-number option expects. */
  static final String WHOLE_NUMBER = "a whole number";

  private static final Pattern WHOLE = Pattern.compile("\\+?[0-9]+");

  private final List<Layer> layers;

  private record Layer(LimitSource source, Function<String, String> options) {}

  private LimitText(List<Layer> layers) {
    this.layers = layers;
  }

  /**
   * The options {@code options} gives ({@code option -> text}, null for one it does not give),
   * worded as {@code source}.
   */
  public static LimitText of(LimitSource source, Function<String, String> options) {
    return new LimitText(List.of(new Layer(source, options)));
  }

  /** These options with {@code options}, from {@code source}, over them. */
  public LimitText over(LimitSource source, Function<String, String> options) {
    List<Layer> all = new ArrayList<>(layers);
    all.add(new Layer(source, options));
    return new LimitText(List.copyOf(all));
  }

  /** Whether a layer gives {@code option}. */
  public boolean has(String option) {
    return given(option) != null;
  }

  /**
   * The limit of options {@link Limit#PERMITS} and {@link Limit#PERIOD} (both required) and {@link
   * Limit#BURST} (default: the permits), checked by {@link Limit}.
   *
   * @throws InvalidLimitException naming the option and the value
   */
  public Limit limit() {
    return limit(Limit::new, permits -> permits);
  }

  /**
   * {@link #limit()} with {@link Limit#BURST} defaulting to {@code defaultBurst} of the permits (a
   * limiter's algorithm's default) rather than to the permits.
   *
   * @throws InvalidLimitException naming the option and the value
   */
  public Limit limit(IntUnaryOperator defaultBurst) {
    return limit(Limit::new, defaultBurst);
  }

  /**
   * {@link #limit()} as a task type's rate: checked against the task-rate ranges first ({@link
   * Limit#taskRate}).
   *
   * @throws IllegalArgumentException naming the option and the value
   */
  public Limit taskRate() {
    return limit(Limit::taskRate, permits -> permits);
  }

  /** Makes a limit of its fields, checking them as it makes it. */
  private interface Maker {
    Limit make(int permits, Duration period, int burst);
  }

  private Limit limit(Maker maker, IntUnaryOperator defaultBurst) {
    int permits = integer(Limit.PERMITS);
    Duration period = duration(Limit.PERIOD, "PT1M");
    return maker.make(permits, period, integer(Limit.BURST, defaultBurst.applyAsInt(permits)));
  }

  /**
   * Whole-number {@code option}, required.
   *
   * @throws InvalidLimitException if no layer gives it or it is not a whole number
   */
  public int integer(String option) {
    return read(option, WHOLE_NUMBER, LimitText::parseInt, null);
  }

  /**
   * Whole-number {@code option}; {@code fallback} when no layer gives it.
   *
   * @throws InvalidLimitException if it is not a whole number
   */
  public int integer(String option, int fallback) {
    return read(option, WHOLE_NUMBER, LimitText::parseInt, fallback);
  }

  /**
   * ISO-8601 duration {@code option}, required; {@code example} shows one in an error.
   *
   * @throws InvalidLimitException if no layer gives it or it is not a duration
   */
  public Duration duration(String option, String example) {
    return read(option, duration(example), LimitText::parseDuration, null);
  }

  /**
   * ISO-8601 duration {@code option}; {@code fallback} when no layer gives it.
   *
   * @throws InvalidLimitException if it is not a duration
   */
  public Duration duration(String option, String example, Duration fallback) {
    return read(option, duration(example), LimitText::parseDuration, fallback);
  }

  /**
   * Constant {@code option} of {@code type}, by name ({@code token-bucket} or {@code
   * TOKEN_BUCKET}); {@code fallback} when no layer gives it.
   *
   * @throws InvalidLimitException listing the constants if it names none
   */
  public <E extends Enum<E>> E constant(String option, Class<E> type, E fallback) {
    return read(
        option,
        "one of "
            + Arrays.stream(type.getEnumConstants())
                .map(c -> c.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                .toList(),
        text -> constant(type, text),
        fallback);
  }

  private <T> T read(String option, String expected, Function<String, T> parser, T fallback) {
    Layer layer = given(option);
    if (layer == null) {
      if (fallback == null) {
        LimitSource last = layers.get(layers.size() - 1).source();
        throw new InvalidLimitException(option, null, last.missing(option, expected));
      }
      return fallback;
    }
    String text = layer.options().apply(option);
    try {
      T value = parser.apply(text);
      if (value != null) {
        return value;
      }
    } catch (RuntimeException e) {
      throw unreadable(layer, option, text, expected, e);
    }
    throw unreadable(layer, option, text, expected, null);
  }

  private static InvalidLimitException unreadable(
      Layer layer, String option, String text, String expected, RuntimeException cause) {
    if (expected.equals(WHOLE_NUMBER) && WHOLE.matcher(text.strip()).matches()) {
      expected = WHOLE_NUMBER + " up to " + Integer.MAX_VALUE; // the digits of a larger one
    }
    return new InvalidLimitException(
        option, text, layer.source().unreadable(option, text, expected), cause);
  }

  /** The layer that gives {@code option}: the last one added that has it; null if none. */
  private Layer given(String option) {
    for (int i = layers.size() - 1; i >= 0; i--) {
      if (layers.get(i).options().apply(option) != null) {
        return layers.get(i);
      }
    }
    return null;
  }

  private static String duration(String example) {
    return "an ISO-8601 duration such as " + example;
  }

  private static Integer parseInt(String text) {
    return Integer.parseInt(text.strip());
  }

  private static Duration parseDuration(String text) {
    return Duration.parse(text.strip());
  }

  private static <E extends Enum<E>> E constant(Class<E> type, String text) {
    String wanted = text.strip().toUpperCase(Locale.ROOT).replace('-', '_');
    for (E constant : type.getEnumConstants()) {
      if (constant.name().equals(wanted)) {
        return constant;
      }
    }
    return null;
  }
}
