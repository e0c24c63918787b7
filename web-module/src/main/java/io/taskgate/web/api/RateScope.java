package io.taskgate.web.api;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * Whom a rate-limit change or reset of {@code /api/throttlers/rate-limit/{type}} is for: one key
 * ({@code "key": "acme"}, or {@code ?key=acme}), or, said explicitly, the whole task type ({@code
 * "scope": "type"}, or {@code ?scope=type}). Neither is a 400 naming {@code key}: a forgotten or
 * empty key never changes every tenant of a type.
 */
final class RateScope {
  /** The body field (and query parameter) that says the change is for the whole task type. */
  static final String FIELD = "scope";

  /** {@link #FIELD}'s value for the whole task type. */
  static final String TYPE = "type";

  /** {@link #FIELD}'s value for one key, the default. */
  static final String KEY = "key";

  private RateScope() {}

  /** The key a PUT body names; null for the whole task type ({@code "scope": "type"}). */
  static String of(JsonObject json) {
    return of(
        text(json, KEY),
        json.get(KEY) != null && json.get(KEY) != JsonValue.NULL,
        text(json, FIELD));
  }

  /** The key the query names; null for the whole task type ({@code ?scope=type}). */
  static String of(String key, String scope) {
    return of(key, key != null, scope);
  }

  private static String of(String key, boolean keyGiven, String scope) {
    if (scope != null && !scope.equals(TYPE) && !scope.equals(KEY)) {
      throw ApiProblem.invalidParameter(
          FIELD, scope, "scope must be \"type\" (the whole task type) or \"key\" (one key)");
    }
    if (TYPE.equals(scope)) {
      if (keyGiven) {
        throw ApiProblem.invalidParameter(
            KEY,
            key,
            "key must be left out with scope \"type\", which changes the rate of every key of the"
                + " task type");
      }
      return null;
    }
    if (!keyGiven) {
      throw ApiProblem.invalidParameter(
          KEY,
          null,
          "key is required: name the key whose rate to change, or send scope \"type\" to change"
              + " the whole task type");
    }
    return Params.key(KEY, key);
  }

  private static String text(JsonObject json, String field) {
    JsonValue value = json.get(field);
    if (value == null || value == JsonValue.NULL) {
      return null;
    }
    if (!(value instanceof JsonString text)) {
      throw ApiProblem.invalidParameter(field, value.toString(), field + " must be a string");
    }
    return text.getString();
  }
}
