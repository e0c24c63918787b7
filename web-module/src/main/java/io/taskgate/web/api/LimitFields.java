package io.taskgate.web.api;

import io.taskgate.api.LimiterAlgorithm;
import io.taskgate.core.limit.InvalidLimitException;
import io.taskgate.core.limit.Limit;
import io.taskgate.core.limit.LimitSource;
import io.taskgate.core.limit.LimitText;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Set;
import java.util.function.Function;

/**
 * The limit of a {@code PUT} body, {@code {"permits": 10, "period": "PT1S", "burst": 10}} ({@code
 * burst} defaults to a limiter's algorithm's, to {@code permits} for a task type's rate), read by
 * {@link LimitText}: the counts are JSON numbers, the period a JSON string. A field that does not
 * read, or breaks the limit's rules, is a 400 problem naming it.
 */
final class LimitFields {
  /** The fields of a limit. */
  static final Set<String> NAMES = Set.of(Limit.PERMITS, Limit.PERIOD, Limit.BURST);

  private static final LimitSource JSON = LimitSource.jsonFields();

  private LimitFields() {}

  /**
   * The limit of {@code json} for a limiter of {@code algorithm}, checked by {@link Limit} (the
   * algorithm checks the rest): {@code burst} defaults to the algorithm's ({@link
   * LimiterAlgorithm#defaultBurst}).
   *
   * @throws ApiProblem 400 naming the field
   */
  static Limit limit(JsonObject json, LimiterAlgorithm algorithm) {
    return read(json, text -> text.limit(algorithm::defaultBurst));
  }

  /**
   * The limit of {@code json} as a task type's rate.
   *
   * @throws ApiProblem 400 naming the field, if it does not read
   * @throws IllegalArgumentException naming the field, if it is out of the task-rate ranges
   */
  static Limit taskRate(JsonObject json) {
    return read(json, LimitText::taskRate);
  }

  private static Limit read(JsonObject json, Function<LimitText, Limit> reading) {
    try {
      return reading.apply(LimitText.of(JSON, field -> text(json, field)));
    } catch (InvalidLimitException e) {
      throw ApiProblem.invalidParameter(e.option(), e.value(), e.getMessage());
    }
  }

  /**
   * A field as text: the period's string, a count's whole number; null when absent or null. A value
   * of another JSON type is its JSON text, which does not read (a count sent as {@code "5"} is
   * refused).
   */
  static String text(JsonObject json, String field) {
    JsonValue value = json.get(field);
    if (value == null || value == JsonValue.NULL) {
      return null;
    }
    if (value instanceof JsonString text && field.equals(Limit.PERIOD)) {
      return text.getString();
    }
    if (value instanceof JsonNumber number && number.isIntegral()) {
      try {
        return String.valueOf(number.bigDecimalValue().intValueExact());
      } catch (ArithmeticException e) {
        return number.toString(); // too large: its digits say so
      }
    }
    return value.toString();
  }
}
