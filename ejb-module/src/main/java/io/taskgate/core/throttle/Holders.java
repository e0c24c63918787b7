package io.taskgate.core.throttle;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serial;
import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Who holds a mutex (limit 1) or a semaphore (limit maxCount): owners, each with the tasks holding
 * under it. A task of an owner that already holds gets in at once (a batch shares one owner, and
 * another execution of the same task counts as the same holder); a new owner gets in while fewer
 * than the limit hold. The limit is passed in on each call, so that lowering it never fails: the
 * excess drains as holders leave. Not thread-safe.
 */
public final class Holders implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  /** What {@link #acquire} answered. */
  public enum Acquired {
    /** A new holder: the task holds from now on. */
    GRANTED,
    /** The task, or its owner, held already: nothing more is taken. */
    REENTERED,
    /** The limit is reached by other owners. */
    REFUSED
  }

  private final LinkedHashMap<String, LinkedHashSet<String>> byOwner = new LinkedHashMap<>();

  /** Lets {@code taskId} of {@code owner} in, if {@code limit} allows. */
  public Acquired acquire(String owner, String taskId, int limit) {
    LinkedHashSet<String> tasks = byOwner.get(owner);
    if (tasks != null) {
      return tasks.add(taskId) ? Acquired.GRANTED : Acquired.REENTERED;
    }
    if (byOwner.size() >= limit) {
      return Acquired.REFUSED;
    }
    tasks = new LinkedHashSet<>();
    tasks.add(taskId);
    byOwner.put(owner, tasks);
    return Acquired.GRANTED;
  }

  /**
   * {@code taskId} of {@code owner} no longer holds; returns true if its owner then holds nothing,
   * so that a permit is free for another owner.
   */
  public boolean release(String owner, String taskId) {
    LinkedHashSet<String> tasks = byOwner.get(owner);
    if (tasks == null || !tasks.remove(taskId)) {
      return false;
    }
    if (tasks.isEmpty()) {
      byOwner.remove(owner);
      return true;
    }
    return false;
  }

  /** How many owners hold. */
  public int owners() {
    return byOwner.size();
  }

  /** How many tasks hold, across owners. */
  public int tasks() {
    int n = 0;
    for (Set<String> tasks : byOwner.values()) {
      n += tasks.size();
    }
    return n;
  }

  /** Whether nobody holds. */
  public boolean isEmpty() {
    return byOwner.isEmpty();
  }

  /** Whether {@code taskId} holds, under any owner. */
  public boolean holds(String taskId) {
    for (Set<String> tasks : byOwner.values()) {
      if (tasks.contains(taskId)) {
        return true;
      }
    }
    return false;
  }

  /** The holders, owner to tasks, in the order they came; a copy. */
  public Map<String, Set<String>> view() {
    Map<String, Set<String>> copy = new LinkedHashMap<>();
    byOwner.forEach((owner, tasks) -> copy.put(owner, Set.copyOf(tasks)));
    return Collections.unmodifiableMap(copy);
  }

  /** Writes the holders to {@code out}, for {@link #readFrom}. */
  public void writeTo(DataOutput out) throws IOException {
    out.writeInt(byOwner.size());
    for (Map.Entry<String, LinkedHashSet<String>> e : byOwner.entrySet()) {
      out.writeUTF(e.getKey());
      out.writeInt(e.getValue().size());
      for (String task : e.getValue()) {
        out.writeUTF(task);
      }
    }
  }

  /** The holders {@link #writeTo} wrote. */
  public static Holders readFrom(DataInput in) throws IOException {
    Holders holders = new Holders();
    for (int owners = in.readInt(); owners > 0; owners--) {
      String owner = in.readUTF();
      LinkedHashSet<String> tasks = new LinkedHashSet<>();
      for (int n = in.readInt(); n > 0; n--) {
        tasks.add(in.readUTF());
      }
      holders.byOwner.put(owner, tasks);
    }
    return holders;
  }
}
