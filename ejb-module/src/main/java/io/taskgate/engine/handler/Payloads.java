package io.taskgate.engine.handler;

import io.taskgate.api.Task;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.json.bind.JsonbException;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Tasks to JSON and back, with JSON-B. */
@ApplicationScoped
public class Payloads {
  private final Jsonb jsonb = JsonbBuilder.create();

  /** The task as JSON. */
  public String write(Task task) {
    try {
      return jsonb.toJson(task);
    } catch (JsonbException e) {
      throw new IllegalArgumentException(
          "Task "
              + task.getClass().getName()
              + " cannot be stored as JSON: "
              + e.getMessage()
              + " (its components must be JSON-B serializable)",
          e);
    }
  }

  /** The task {@code json} describes. */
  public <T extends Task> T read(String json, Class<T> type) {
    return jsonb.fromJson(json, type);
  }

  @PreDestroy
  void close() {
    try {
      jsonb.close();
    } catch (Exception e) {
      Logger.getLogger(Payloads.class.getName()).log(Level.FINE, "Closing JSON-B failed", e);
    }
  }
}
