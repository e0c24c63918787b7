package io.taskgate.engine.cluster;

import io.taskgate.store.InstanceRecord;
import io.taskgate.store.InstanceStore;
import io.taskgate.store.ParkedSummary;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * This instance among those sharing the database: it writes its heartbeat ({@link #beat}, every
 * {@link ClusterSettings#heartbeatInterval}) and keeps the instances it read with it, so that the
 * engine can tell, without asking the database each time, whether a task's owner is this instance,
 * a live peer, or dead (its last beat older than {@link ClusterSettings#instanceTimeout}, or no row
 * at all). A clean stop marks the instance's row stopped, so that its peers take over at once.
 * Thread-safe.
 */
@ApplicationScoped
public class Instances {
  private static final Logger LOG = Logger.getLogger(Instances.class.getName());

  @Inject InstanceStore store;
  @Inject InstantSource clock;
  @Inject ClusterSettings settings;

  private volatile Instant started;
  private volatile Map<String, InstanceRecord> known = Map.of();
  private volatile Instant read = Instant.MIN; // when known was read
  private volatile Instant lastBeat;
  private final Map<UUID, Instant> adopted = new ConcurrentHashMap<>();

  /** How many tasks taken over from dead peers are remembered until their first gate. */
  static final int MAX_ADOPTED = 100_000;

  /** This instance's identity. */
  public String self() {
    return settings.instanceId();
  }

  /**
   * Writes this instance's heartbeat, with what it has {@code parked} and its member of the data
   * grid (null: its budgets are local), and reads the others'; returns whether the write succeeded.
   * A failure is logged and the view kept as it was: the next beat tries again.
   */
  public boolean beat(ParkedSummary parked, String gridMember) {
    Instant now = clock.instant();
    if (started == null) {
      started = now.truncatedTo(ChronoUnit.MICROS); // as the database keeps it
    }
    try {
      Optional<InstanceRecord> before =
          store.beat(
              new InstanceRecord(
                  self(),
                  settings.host(),
                  started,
                  now,
                  TaskgateVersion.CURRENT,
                  parked,
                  gridMember),
              now);
      if (lastBeat != null
          && before.isPresent()
          && !before.get().started().equals(started.truncatedTo(ChronoUnit.MICROS))) {
        twin(before.get());
      }
      lastBeat = now;
      readAll();
      return true;
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Taskgate instance " + self() + " could not write its heartbeat", e);
      return false;
    }
  }

  /** Another instance wrote a beat under this identity since this instance's last one. */
  private void twin(InstanceRecord other) {
    LOG.severe(
        "Another instance writes its heartbeat as '"
            + self()
            + "' too (it started "
            + other.started()
            + " on host "
            + other.host()
            + "): instances sharing a database need an identity each; set "
            + ClusterSettings.INSTANCE_ID
            + " on each of them");
  }

  private void readAll() {
    known =
        store.instances().stream()
            .collect(Collectors.toUnmodifiableMap(InstanceRecord::id, Function.identity()));
    read = clock.instant(); // after the read: rows committed before it are in the view
  }

  /** Marks this instance stopped at a clean stop, so that peers take over its tasks at once. */
  public void leave() {
    try {
      store.markStopped(self());
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Taskgate instance " + self() + " could not mark itself stopped", e);
    }
  }

  /** The peers dead at {@code now} as of the last beat (stopped, or silent for too long). */
  public List<InstanceRecord> deadPeers(Instant now) {
    return known().stream()
        .filter(i -> !i.id().equals(self()) && i.deadAt(now, settings.instanceTimeout()))
        .toList();
  }

  /** The peers (this instance not among them) alive at {@code now} as of the last beat. */
  public List<InstanceRecord> alivePeers(Instant now) {
    return known().stream()
        .filter(i -> !i.id().equals(self()) && !i.deadAt(now, settings.instanceTimeout()))
        .toList();
  }

  /** The identities of the peers alive as of the last beat, this instance among them. */
  public java.util.Set<String> alive(Instant now) {
    java.util.Set<String> alive = new java.util.HashSet<>();
    alive.add(self());
    for (InstanceRecord i : known.values()) {
      if (!i.deadAt(now, settings.instanceTimeout())) {
        alive.add(i.id());
      }
    }
    return alive;
  }

  /**
   * Forgets a dead peer whose tasks have all been taken over: removes its row unless it has beaten
   * since (it came back). Returns whether it removed it.
   */
  public boolean forget(InstanceRecord dead) {
    boolean removed = store.removeIfSilent(dead.id(), dead.lastBeat());
    if (removed) {
      LOG.info(
          "Taskgate instance "
              + self()
              + " forgot instance "
              + dead.id()
              + " (last beat "
              + dead.lastBeat()
              + "): its tasks are taken over");
    }
    return removed;
  }

  /**
   * Whether {@code owner} is dead at {@code now}: not this instance, and either without a row or
   * with a last beat older than the instance timeout. An owner this instance has not seen yet may
   * have started since the last beat: the rows are read again first, unless they were read after
   * {@code now}, so a new peer's tasks are never taken for a dead one's. A task without an owner
   * (null) belongs to nobody alive.
   */
  public boolean dead(String owner, Instant now) {
    if (owner == null) {
      return true;
    }
    if (owner.equals(self())) {
      return false;
    }
    InstanceRecord peer = known.get(owner);
    if (peer == null && !read.isAfter(now)) {
      synchronized (this) {
        if (!read.isAfter(now)) {
          readAll();
        }
      }
      peer = known.get(owner);
    }
    return peer == null || peer.deadAt(now, settings.instanceTimeout());
  }

  /** Whether this instance may take over a task of {@code owner}: its own, or a dead one's. */
  public boolean mayTake(String owner, Instant now) {
    return self().equals(owner) || dead(owner, now);
  }

  /**
   * Notes that this instance took over {@code taskId} from a dead peer at {@code now}, for the
   * rate-limit gate ({@link #takeAdopted}). Beyond {@value #MAX_ADOPTED} remembered, those older
   * than an hour are forgotten first; if none is, the task is not remembered.
   */
  public void adopted(UUID taskId, Instant now) {
    if (adopted.size() >= MAX_ADOPTED) {
      Instant old = now.minus(Duration.ofHours(1));
      adopted.values().removeIf(at -> at.isBefore(old));
      if (adopted.size() >= MAX_ADOPTED) {
        return;
      }
    }
    adopted.put(taskId, now);
  }

  /** Whether {@code taskId} was taken over from a dead peer and not asked about since. */
  public boolean takeAdopted(UUID taskId) {
    return !adopted.isEmpty() && adopted.remove(taskId) != null;
  }

  /** The instances as of the last beat, in the order of their ids. */
  public List<InstanceRecord> known() {
    return known.values().stream().sorted((a, b) -> a.id().compareTo(b.id())).toList();
  }

  /** When this instance last wrote its heartbeat. */
  public Optional<Instant> lastBeat() {
    return Optional.ofNullable(lastBeat);
  }
}
