package io.taskgate.it.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Turns MicroProfile Telemetry on in the deployment of TracingIT, exporting spans over OTLP/HTTP
 * (protobuf) to the test's receiver, whose port the deployment carries in {@value #PORT_FILE};
 * every other deployment runs with tracing off, the default.
 */
public class TracingOn extends FixedConfigSource {
  /** The resource that holds the receiver's port. */
  public static final String PORT_FILE = "taskgate-it-otlp.port";

  public TracingOn() {
    super("taskgate-it-tracing", values());
  }

  private static Map<String, String> values() {
    String port;
    try (InputStream in = TracingOn.class.getClassLoader().getResourceAsStream(PORT_FILE)) {
      if (in == null) {
        return Map.of();
      }
      port = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Map.of(
        "otel.sdk.disabled", "false",
        "otel.service.name", "taskgate-it",
        "otel.traces.exporter", "otlp",
        "otel.metrics.exporter", "none",
        "otel.logs.exporter", "none",
        "otel.exporter.otlp.protocol", "http/protobuf",
        "otel.exporter.otlp.traces.protocol", "http/protobuf",
        "otel.exporter.otlp.traces.endpoint", "http://127.0.0.1:" + port + "/v1/traces",
        "otel.bsp.schedule.delay", "100");
  }
}
