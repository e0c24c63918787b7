package io.taskgate.web.api;

import io.taskgate.core.time.Ticker;
import io.taskgate.engine.admin.MonitorFeed;
import io.taskgate.engine.admin.dto.MonitorEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Sends the monitoring stream ({@link MonitorFeed}) to the open {@code GET /api/events}
 * connections. The engine's threads only offer each event to a bounded queue (events beyond {@value
 * #QUEUE_CAPACITY} waiting are dropped and counted, never waited for); one thread of the managed
 * executor serializes them with JSON-B and sends them, and a comment every {@value
 * #KEEP_ALIVE_SECONDS} s keeps idle connections open. Subscribed to the feed only while a
 * connection is open, so that nobody watching costs nothing.
 */
@ApplicationScoped
public class EventStream {
  private static final Logger LOG = Logger.getLogger(EventStream.class.getName());

  static final int QUEUE_CAPACITY = 10_000;
  static final long KEEP_ALIVE_SECONDS = 15;

  @Inject MonitorFeed feed;
  @Inject Ticker ticker;
  @Resource ManagedExecutorService executor;

  private final BlockingQueue<MonitorEvent> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
  private final List<Client> clients = new CopyOnWriteArrayList<>();
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong ids = new AtomicLong();
  private final Jsonb jsonb = JsonbBuilder.create();
  private Runnable subscription; // guarded by this
  private boolean draining; // guarded by this

  private record Client(SseEventSink sink, Sse sse, Set<String> names) {
    boolean wants(String name) {
      return names.isEmpty() || names.contains(name);
    }
  }

  /** Opens a connection: it receives the events named in {@code names} (empty: all). */
  synchronized void open(SseEventSink sink, Sse sse, Set<String> names) {
    clients.add(new Client(sink, sse, names));
    if (subscription == null) {
      subscription = feed.subscribe(this::offer);
    }
    if (!draining) {
      draining = true;
      executor.execute(this::drain);
    }
    sink.send(sse.newEventBuilder().comment("taskgate monitoring stream").build());
  }

  /** Open connections. */
  public int connections() {
    return clients.size();
  }

  /** Events dropped because the connections could not keep up. */
  public long dropped() {
    return dropped.get();
  }

  private void offer(MonitorEvent event) {
    if (!queue.offer(event)) {
      dropped.incrementAndGet();
    }
  }

  private void drain() {
    long lastSent = ticker.nanos();
    try {
      while (true) {
        MonitorEvent event = queue.poll(1, TimeUnit.SECONDS);
        clients.removeIf(c -> c.sink().isClosed());
        if (clients.isEmpty() && stopIfIdle()) {
          return;
        }
        if (event != null) {
          send(event);
          lastSent = ticker.nanos();
        } else if (ticker.nanos() - lastSent > TimeUnit.SECONDS.toNanos(KEEP_ALIVE_SECONDS)) {
          for (Client client : clients) {
            client.sink().send(client.sse().newEventBuilder().comment("keep-alive").build());
          }
          lastSent = ticker.nanos();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Taskgate's event stream stopped; connections are closed", e);
      clients.forEach(c -> c.sink().close());
      clients.clear();
    } finally {
      synchronized (this) {
        draining = false;
        stopIfIdle();
      }
    }
  }

  /** Unsubscribes when no connection is left; returns whether it did. */
  private synchronized boolean stopIfIdle() {
    if (!clients.isEmpty()) {
      return false;
    }
    if (subscription != null) {
      subscription.run();
      subscription = null;
    }
    queue.clear();
    return true;
  }

  private void send(MonitorEvent event) {
    String json = jsonb.toJson(event.data());
    String id = Long.toString(ids.incrementAndGet());
    for (Client client : clients) {
      if (!client.wants(event.name())) {
        continue;
      }
      client
          .sink()
          .send(
              client
                  .sse()
                  .newEventBuilder()
                  .name(event.name())
                  .id(id)
                  .mediaType(MediaType.APPLICATION_JSON_TYPE)
                  .data(String.class, json)
                  .build())
          .exceptionally(
              failure -> {
                client.sink().close();
                return null;
              });
    }
  }

  @PreDestroy
  void close() {
    clients.forEach(c -> c.sink().close());
    clients.clear();
    try {
      jsonb.close();
    } catch (Exception e) {
      LOG.log(Level.FINE, "Closing JSON-B failed", e);
    }
  }
}
