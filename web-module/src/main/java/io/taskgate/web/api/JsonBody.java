package io.taskgate.web.api;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a request body that must be JSON: its {@code Content-Type} must be {@code application/json}
 * or an {@code application/…+json} type (else 415), and it must be at most the payload limit in
 * bytes (else 413, checked on {@code Content-Length} before reading and on the bytes read). The
 * text is decoded with the type's {@code charset}, UTF-8 when it names none.
 */
final class JsonBody {
  private static final int CHUNK = 8192;

  private JsonBody() {}

  /**
   * The body's text.
   *
   * @param contentType the request's {@code Content-Type}, or null
   * @param contentLength the request's {@code Content-Length}, or null
   * @param in the body
   * @param maxBytes the most bytes accepted
   * @throws ApiProblem 415 for another media type or an unknown charset, 413 for a larger body
   */
  static String read(String contentType, String contentLength, InputStream in, int maxBytes) {
    Charset charset = charset(contentType);
    if (contentLength != null) {
      try {
        if (Long.parseLong(contentLength.strip()) > maxBytes) {
          throw tooLarge(contentLength.strip(), maxBytes);
        }
      } catch (NumberFormatException e) {
        // the container has framed the body already; count the bytes instead
      }
    }
    if (in == null) {
      return "";
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    byte[] chunk = new byte[CHUNK];
    try {
      int n;
      while ((n = in.read(chunk)) != -1) {
        if (bytes.size() + (long) n > maxBytes) {
          throw tooLarge("more than " + maxBytes, maxBytes);
        }
        bytes.write(chunk, 0, n);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Reading the request body failed", e);
    }
    return bytes.toString(charset);
  }

  /**
   * The charset of a JSON {@code contentType}: its {@code charset} parameter, or UTF-8.
   *
   * @throws ApiProblem 415 if it is absent, not JSON, or names a charset Java does not know
   */
  static Charset charset(String contentType) {
    if (contentType == null || contentType.isBlank()) {
      throw unsupported(
          null, "The body must be JSON: send Content-Type: application/json (it was missing)");
    }
    String[] parts = contentType.split(";");
    String type = parts[0].strip().toLowerCase(Locale.ROOT);
    if (!type.equals("application/json")
        && !(type.startsWith("application/") && type.endsWith("+json"))) {
      throw unsupported(
          contentType,
          "The body must be JSON: send Content-Type: application/json (it was '"
              + contentType
              + "')");
    }
    Map<String, String> parameters = new LinkedHashMap<>();
    for (int i = 1; i < parts.length; i++) {
      int eq = parts[i].indexOf('=');
      if (eq > 0) {
        String value = parts[i].substring(eq + 1).strip();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
          value = value.substring(1, value.length() - 1);
        }
        parameters.put(parts[i].substring(0, eq).strip().toLowerCase(Locale.ROOT), value);
      }
    }
    String name = parameters.get("charset");
    if (name == null || name.isEmpty()) {
      return StandardCharsets.UTF_8;
    }
    try {
      return Charset.forName(name);
    } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
      throw unsupported(
          contentType, "The body's charset '" + name + "' is unknown: send JSON in UTF-8");
    }
  }

  private static ApiProblem unsupported(String contentType, String detail) {
    Map<String, Object> ext = new LinkedHashMap<>();
    ext.put("parameter", "Content-Type");
    if (contentType != null) {
      ext.put("value", contentType);
    }
    return new ApiProblem(
        415, ApiProblem.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type", detail, ext);
  }

  private static Map<String, Object> extensions(int maxBytes) {
    Map<String, Object> ext = new LinkedHashMap<>();
    ext.put("parameter", "body");
    ext.put("maxBytes", maxBytes);
    return ext;
  }

  private static ApiProblem tooLarge(String size, int maxBytes) {
    return new ApiProblem(
        413,
        ApiProblem.PAYLOAD_TOO_LARGE,
        "Payload too large",
        "The body is "
            + size
            + " bytes; at most "
            + maxBytes
            + " are accepted (taskgate.dispatch.max-payload-bytes)",
        extensions(maxBytes));
  }
}
