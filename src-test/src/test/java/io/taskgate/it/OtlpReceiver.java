package io.taskgate.it;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

/**
 * A small OTLP/HTTP trace receiver (a JDK {@code HttpServer} on 127.0.0.1): accepts {@code POST
 * /v1/traces} in {@code application/x-protobuf} (gzip or not), as an OpenTelemetry SDK exports with
 * {@code otel.exporter.otlp.protocol=http/protobuf}, and keeps every span it is sent. The protobuf
 * wire format is read by hand, field by field, for the messages of {@code
 * opentelemetry/proto/collector/trace/v1} that carry spans (unknown fields skipped).
 */
final class OtlpReceiver implements AutoCloseable {

  /** A span as exported: ids in lower-case hex, times in Unix nanoseconds. */
  record ReceivedSpan(
      String traceId,
      String spanId,
      String parentSpanId,
      String name,
      int kind,
      long startNanos,
      long endNanos,
      Map<String, Object> attributes,
      List<String> linkedSpanIds,
      int statusCode) {

    static final int KIND_SERVER = 2;
    static final int KIND_PRODUCER = 4;
    static final int KIND_CONSUMER = 5;
    static final int STATUS_ERROR = 2;

    Object attribute(String key) {
      return attributes.get(key);
    }
  }

  private final HttpServer server;
  private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
  private final List<String> refused = new CopyOnWriteArrayList<>();

  OtlpReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/v1/traces",
        exchange -> {
          try (exchange) {
            String type = exchange.getRequestHeaders().getFirst("Content-Type");
            if (!"POST".equals(exchange.getRequestMethod())
                || type == null
                || !type.startsWith("application/x-protobuf")) {
              refused.add(exchange.getRequestMethod() + " " + type);
              exchange.sendResponseHeaders(415, -1);
              return;
            }
            InputStream in = exchange.getRequestBody();
            if ("gzip"
                .equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
              in = new GZIPInputStream(in);
            }
            spans.addAll(exportRequest(in.readAllBytes()));
            exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, -1); // an empty ExportTraceServiceResponse
          } catch (RuntimeException e) {
            refused.add(e.toString());
            throw e;
          }
        });
    server.start();
  }

  /** The port it listens on. */
  int port() {
    return server.getAddress().getPort();
  }

  /** Every span received so far. */
  List<ReceivedSpan> spans() {
    return List.copyOf(spans);
  }

  /** The requests it refused or could not read, described. */
  List<String> refused() {
    return List.copyOf(refused);
  }

  @Override
  public void close() {
    server.stop(0);
  }

  // ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
  static List<ReceivedSpan> exportRequest(byte[] bytes) {
    List<ReceivedSpan> out = new ArrayList<>();
    for (Field resourceSpans : fields(bytes)) {
      if (resourceSpans.number == 1) {
        // ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
        for (Field scopeSpans : fields(resourceSpans.bytes)) {
          if (scopeSpans.number == 2) {
            // ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; }
            for (Field span : fields(scopeSpans.bytes)) {
              if (span.number == 2) {
                out.add(span(span.bytes));
              }
            }
          }
        }
      }
    }
    return out;
  }

  private static ReceivedSpan span(byte[] bytes) {
    String traceId = "";
    String spanId = "";
    String parent = "";
    String name = "";
    int kind = 0;
    long start = 0;
    long end = 0;
    Map<String, Object> attributes = new LinkedHashMap<>();
    List<String> links = new ArrayList<>();
    int status = 0;
    for (Field f : fields(bytes)) {
      switch (f.number) {
        case 1 -> traceId = HexFormat.of().formatHex(f.bytes);
        case 2 -> spanId = HexFormat.of().formatHex(f.bytes);
        case 4 -> parent = HexFormat.of().formatHex(f.bytes);
        case 5 -> name = new String(f.bytes, StandardCharsets.UTF_8);
        case 6 -> kind = (int) f.value;
        case 7 -> start = f.value;
        case 8 -> end = f.value;
        case 9 -> keyValue(f.bytes, attributes);
        case 13 -> {
          // Link { bytes trace_id = 1; bytes span_id = 2; ... }
          for (Field l : fields(f.bytes)) {
            if (l.number == 2) {
              links.add(HexFormat.of().formatHex(l.bytes));
            }
          }
        }
        case 15 -> {
          // Status { string message = 2; StatusCode code = 3; }
          for (Field s : fields(f.bytes)) {
            if (s.number == 3) {
              status = (int) s.value;
            }
          }
        }
        default -> {}
      }
    }
    return new ReceivedSpan(
        traceId, spanId, parent, name, kind, start, end, attributes, links, status);
  }

  // KeyValue { string key = 1; AnyValue value = 2; }
  // AnyValue { string string_value = 1; bool bool_value = 2; int64 int_value = 3;
  //            double double_value = 4; ... }
  private static void keyValue(byte[] bytes, Map<String, Object> into) {
    String key = null;
    Object value = null;
    for (Field f : fields(bytes)) {
      if (f.number == 1) {
        key = new String(f.bytes, StandardCharsets.UTF_8);
      } else if (f.number == 2) {
        for (Field v : fields(f.bytes)) {
          value =
              switch (v.number) {
                case 1 -> new String(v.bytes, StandardCharsets.UTF_8);
                case 2 -> v.value != 0;
                case 3 -> v.value;
                case 4 -> Double.longBitsToDouble(v.value);
                default -> "(unread type " + v.number + ")";
              };
        }
      }
    }
    if (key != null) {
      into.put(key, value);
    }
  }

  /** One field of a message: its number, and its varint or fixed value or its bytes. */
  private record Field(int number, long value, byte[] bytes) {}

  /** The fields of a protobuf message, in order. */
  private static List<Field> fields(byte[] bytes) {
    List<Field> out = new ArrayList<>();
    int[] at = {0};
    while (at[0] < bytes.length) {
      long tag = varint(bytes, at);
      int number = (int) (tag >>> 3);
      int wire = (int) (tag & 7);
      switch (wire) {
        case 0 -> out.add(new Field(number, varint(bytes, at), null));
        case 1 -> out.add(new Field(number, fixed(bytes, at, 8), null));
        case 5 -> out.add(new Field(number, fixed(bytes, at, 4), null));
        case 2 -> {
          int length = (int) varint(bytes, at);
          byte[] value = new byte[length];
          System.arraycopy(bytes, at[0], value, 0, length);
          at[0] += length;
          out.add(new Field(number, 0, value));
        }
        default -> throw new IllegalArgumentException("wire type " + wire + " at " + at[0]);
      }
    }
    return out;
  }

  private static long varint(byte[] bytes, int[] at) {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte b = bytes[at[0]++];
      result |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw new IllegalArgumentException("varint too long");
  }

  private static long fixed(byte[] bytes, int[] at, int size) {
    long result = 0;
    for (int i = 0; i < size; i++) {
      result |= (long) (bytes[at[0]++] & 0xff) << (8 * i);
    }
    return result;
  }
}
