package io.taskgate.core.throttle;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A resource id template such as {@code "order-{orderId}"} or {@code "tenant-{order.tenantId}"},
 * checked against a task type once and filled from each task: a placeholder names a record
 * component of the task (or of a record it holds, for a dotted path), or a public no-argument
 * method. The filled id is normalised ({@link #normalise}). Immutable and thread-safe.
 */
public final class ResourceTemplate {
  /** The longest resource id, in characters. */
  public static final int MAX_LENGTH = 100;

  private final String text;
  private final List<Object> parts; // String literals and Method[] paths

  private ResourceTemplate(String text, List<Object> parts) {
    this.text = text;
    this.parts = parts;
  }

  /**
   * The template {@code text} for tasks of {@code type}.
   *
   * @throws IllegalArgumentException naming the placeholder, if one is unclosed, empty or names
   *     nothing {@code type} has
   */
  public static ResourceTemplate parse(String text, Class<?> type) {
    Objects.requireNonNull(text, "text");
    if (text.isBlank()) {
      throw new IllegalArgumentException("the resource id must not be blank");
    }
    List<Object> parts = new ArrayList<>();
    int at = 0;
    while (at < text.length()) {
      int open = text.indexOf('{', at);
      if (open < 0) {
        parts.add(text.substring(at));
        break;
      }
      if (open > at) {
        parts.add(text.substring(at, open));
      }
      int close = text.indexOf('}', open);
      if (close < 0) {
        throw new IllegalArgumentException(
            "the placeholder at position " + open + " of '" + text + "' is not closed with }");
      }
      parts.add(path(text.substring(open + 1, close).trim(), type, text));
      at = close + 1;
    }
    return new ResourceTemplate(text, List.copyOf(parts));
  }

  private static Method[] path(String path, Class<?> type, String text) {
    if (path.isEmpty()) {
      throw new IllegalArgumentException("'" + text + "' has an empty placeholder {}");
    }
    String[] names = path.split("\\.", -1);
    Method[] methods = new Method[names.length];
    Class<?> owner = type;
    for (int i = 0; i < names.length; i++) {
      methods[i] = accessor(owner, names[i]);
      if (methods[i] == null) {
        throw new IllegalArgumentException(
            "placeholder {"
                + path
                + "} of '"
                + text
                + "': "
                + owner.getName()
                + " has no component or public no-argument method '"
                + names[i]
                + "'");
      }
      owner = methods[i].getReturnType();
    }
    return methods;
  }

  private static Method accessor(Class<?> owner, String name) {
    if (owner.isRecord()) {
      for (RecordComponent c : owner.getRecordComponents()) {
        if (c.getName().equals(name)) {
          Method m = c.getAccessor();
          m.setAccessible(true);
          return m;
        }
      }
    }
    for (String candidate :
        List.of(name, "get" + Character.toUpperCase(name.charAt(0)) + name.substring(1))) {
      try {
        Method m = owner.getMethod(candidate);
        if (!Modifier.isStatic(m.getModifiers()) && m.getReturnType() != void.class) {
          return m;
        }
      } catch (NoSuchMethodException e) {
        // try the next spelling
      }
    }
    return null;
  }

  /** Whether the template has placeholders (a fixed id otherwise). */
  public boolean isDynamic() {
    return parts.stream().anyMatch(Method[].class::isInstance);
  }

  /** The template as written. */
  public String text() {
    return text;
  }

  /**
   * The id for {@code task}, normalised.
   *
   * @throws IllegalArgumentException if a placeholder's value is null, or the id is longer than
   *     {@link #MAX_LENGTH}
   */
  public String fill(Object task) {
    StringBuilder id = new StringBuilder();
    for (Object part : parts) {
      if (part instanceof String literal) {
        id.append(literal);
        continue;
      }
      Object value = task;
      for (Method m : (Method[]) part) {
        if (value == null) {
          break;
        }
        try {
          value = m.invoke(value);
        } catch (IllegalAccessException | InvocationTargetException e) {
          throw new IllegalArgumentException(
              "resource id '" + text + "': reading " + m.getName() + "() failed: " + e, e);
        }
      }
      if (value == null) {
        throw new IllegalArgumentException(
            "resource id '" + text + "': a placeholder's value is null in the task");
      }
      id.append(value);
    }
    return normalise(id.toString(), text);
  }

  /**
   * {@code id} lower-cased ({@link Locale#ROOT}): ids are case-insensitive and otherwise kept as
   * they are, so that ids that differ in anything but case never share a throttler ({@code order/1}
   * and {@code order_1}, {@code café} and {@code caf_} are four).
   *
   * @throws IllegalArgumentException naming {@code template} if the id is blank, longer than {@link
   *     #MAX_LENGTH} characters or holds a control character (a line break in a log line, say)
   */
  public static String normalise(String id, String template) {
    String lower = id.toLowerCase(Locale.ROOT);
    if (lower.isBlank()) {
      throw new IllegalArgumentException("resource id from '" + template + "' is empty");
    }
    int length = lower.length(); // UTF-16 units, as the stores count them
    if (length > MAX_LENGTH) {
      throw new IllegalArgumentException(
          "resource id '"
              + lower.substring(0, 40)
              + "…' from '"
              + template
              + "' has "
              + length
              + " characters; at most "
              + MAX_LENGTH
              + " are allowed");
    }
    for (int i = 0; i < lower.length(); i++) {
      if (Character.isISOControl(lower.charAt(i))) {
        throw new IllegalArgumentException(
            "resource id from '"
                + template
                + "' holds the control character U+"
                + String.format("%04X", (int) lower.charAt(i))
                + " at position "
                + i);
      }
    }
    return lower;
  }

  @Override
  public String toString() {
    return text;
  }
}
