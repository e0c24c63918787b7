package io.taskgate.it;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Checks, from outside the engine, that a key's starts keep its rate-limit policy at every instant:
 * every start of every key, from every instance, is replayed in time order through a GCRA with the
 * policy (virtual scheduling, ITU-T I.371) whose tolerance is the policy's burst tolerance plus the
 * engine's documented start tolerance; a start the GCRA would not allow is a violation, wherever it
 * falls, not only on average.
 *
 * <p>A restart of a limiter that keeps its budgets in memory makes the key's bucket anew (seed
 * 000's rule): {@link Key#rebornAt} marks such an instant, after which the replay starts again with
 * a full bucket, or with an empty one for a policy that starts empty (its first start is free, the
 * next comes one interval later). Budgets kept in the data grid are not reborn when one instance
 * restarts.
 *
 * <p>Pure Java and clock-free; the in-container tests read the starts from their handlers' ledgers.
 */
public final class Conformance {

  /**
   * How much earlier than the GCRA allows the engine may start a task, on top of the policy's burst
   * tolerance: a start is counted when the engine decides it and the handler sees it a little
   * later, so two starts may come closer together than their counted times by this much (see
   * docs/architecture.md, "What never faster means, and the start tolerance").
   */
  public static final Duration START_TOLERANCE = Duration.ofMillis(25);

  private Conformance() {}

  /**
   * A rate-limit policy as the check replays it.
   *
   * @param permits starts per period
   * @param period the period
   * @param burst starts that may come back to back after a quiet stretch (at least 1)
   * @param startEmpty whether a new (or reborn) key starts with no saved-up budget
   */
  public record Policy(int permits, Duration period, int burst, boolean startEmpty) {
    public Policy {
      if (permits < 1 || burst < 1 || period == null || period.isZero() || period.isNegative()) {
        throw new IllegalArgumentException(
            "permits and burst must be at least 1 and period positive, was "
                + permits
                + ", "
                + burst
                + ", "
                + period);
      }
    }

    /** {@code permits} per {@code period}, {@code burst} back to back, starting full. */
    public static Policy of(int permits, Duration period, int burst) {
      return new Policy(permits, period, burst, false);
    }

    /** This policy, starting empty. */
    public Policy startingEmpty() {
      return new Policy(permits, period, burst, true);
    }

    long intervalNanos() {
      return period.toNanos() / permits;
    }

    long burstToleranceNanos() {
      return (burst - 1) * intervalNanos();
    }

    @Override
    public String toString() {
      return permits
          + " per "
          + period
          + ", burst "
          + burst
          + (startEmpty ? ", starting empty" : "");
    }
  }

  /**
   * One start of a task.
   *
   * @param at when its handler began
   * @param taskId the task
   * @param instance the instance that ran it
   * @param cost how many units of its key's budget it spent (at least 1)
   */
  public record Start(Instant at, String taskId, String instance, int cost) {
    public Start {
      Objects.requireNonNull(at, "at");
      if (cost < 1) {
        throw new IllegalArgumentException("cost must be at least 1, was " + cost);
      }
    }

    /** A start that spent one unit. */
    public Start(Instant at, String taskId, String instance) {
      this(at, taskId, instance, 1);
    }
  }

  /** A start the policy did not allow: {@code early} before the GCRA would have let it start. */
  public record Violation(String key, int index, Start start, Duration early) {
    @Override
    public String toString() {
      return key
          + ": start "
          + index
          + " ("
          + start.taskId()
          + " on "
          + start.instance()
          + " at "
          + start.at()
          + ") came "
          + early.toNanos() / 1_000_000.0
          + " ms before the policy allowed it";
    }
  }

  /** The starts of one key and the instants its bucket was made anew. */
  public static final class Key {
    private final String name;
    private final Policy policy;
    private final List<Start> starts = new ArrayList<>();
    private final List<Instant> rebirths = new ArrayList<>();

    private Key(String name, Policy policy) {
      this.name = name;
      this.policy = policy;
    }

    /** Adds a start. */
    public Key started(Start start) {
      starts.add(start);
      return this;
    }

    /** The key's bucket was made anew at {@code at} (a restart of an in-memory limiter). */
    public Key rebornAt(Instant at) {
      rebirths.add(at);
      return this;
    }

    /** The starts so far. */
    public List<Start> starts() {
      return List.copyOf(starts);
    }
  }

  /** A set of keys to check together. */
  public static final class Run {
    private final Duration tolerance;
    private final Map<String, Key> keys = new LinkedHashMap<>();

    private Run(Duration tolerance) {
      this.tolerance = tolerance;
    }

    /** The key {@code name} under {@code policy}, made on first use. */
    public Key key(String name, Policy policy) {
      Key key = keys.computeIfAbsent(name, n -> new Key(n, policy));
      if (!key.policy.equals(policy)) {
        throw new IllegalArgumentException(
            "key " + name + " is checked under " + key.policy + ", not " + policy);
      }
      return key;
    }

    /** Every key's bucket was made anew at {@code at}. */
    public Run rebornAt(Instant at) {
      keys.values().forEach(k -> k.rebornAt(at));
      return this;
    }

    /** The starts that the policy, with the tolerance, did not allow; empty when all conform. */
    public List<Violation> violations() {
      List<Violation> found = new ArrayList<>();
      for (Key key : keys.values()) {
        found.addAll(check(key, tolerance));
      }
      return found;
    }

    /** How many starts were checked. */
    public int starts() {
      return keys.values().stream().mapToInt(k -> k.starts.size()).sum();
    }

    /**
     * Fails, listing the first violations, unless every start conforms; otherwise returns a line
     * saying how much was checked, for the test's output.
     */
    public String assertConforms() {
      List<Violation> found = violations();
      if (!found.isEmpty()) {
        StringBuilder text =
            new StringBuilder()
                .append(found.size())
                .append(" of ")
                .append(starts())
                .append(" starts came before their key's policy allowed them (tolerance ")
                .append(tolerance)
                .append("):");
        found.stream().limit(20).forEach(v -> text.append("\n  ").append(v));
        throw new AssertionError(text.toString());
      }
      return "conformance: "
          + starts()
          + " starts of "
          + keys.size()
          + " keys, every one within its policy (tolerance "
          + tolerance
          + ")";
    }
  }

  /** A run checked with the engine's {@link #START_TOLERANCE}. */
  public static Run run() {
    return new Run(START_TOLERANCE);
  }

  /** A run checked with {@code tolerance} beyond each policy's burst tolerance. */
  public static Run run(Duration tolerance) {
    if (tolerance.isNegative()) {
      throw new IllegalArgumentException("tolerance must not be negative, was " + tolerance);
    }
    return new Run(tolerance);
  }

  /**
   * Replays the key's starts through the GCRA: a start at {@code t} of {@code n} units conforms
   * when {@code TAT + (n − 1)·T − t ≤ τ + tolerance}, and moves {@code TAT} to {@code max(TAT, t) +
   * n·T}. A new or reborn key counts from a full bucket ({@code TAT = t}), or, for a policy
   * starting empty, from an empty one ({@code TAT = t + τ}: its first start of one unit is free).
   */
  static List<Violation> check(Key key, Duration tolerance) {
    List<Start> sorted = new ArrayList<>(key.starts);
    sorted.sort(Comparator.comparing(Start::at));
    List<Instant> rebirths = new ArrayList<>(key.rebirths);
    rebirths.sort(null);
    long interval = key.policy.intervalNanos();
    long burstTolerance = key.policy.burstToleranceNanos();
    long allowed = burstTolerance + tolerance.toNanos();
    List<Violation> found = new ArrayList<>();
    Instant origin = sorted.isEmpty() ? Instant.EPOCH : sorted.get(0).at();
    int nextRebirth = 0;
    boolean fresh = true;
    long tat = 0;
    for (int i = 0; i < sorted.size(); i++) {
      Start start = sorted.get(i);
      while (nextRebirth < rebirths.size() && !rebirths.get(nextRebirth).isAfter(start.at())) {
        nextRebirth++;
        fresh = true;
      }
      long t = Duration.between(origin, start.at()).toNanos();
      if (fresh) {
        tat = key.policy.startEmpty ? t + burstTolerance : t;
        fresh = false;
      }
      long early = tat + (start.cost() - 1) * interval - t - allowed;
      if (early > 0) {
        found.add(new Violation(key.name, i, start, Duration.ofNanos(early)));
      }
      tat = Math.max(tat, t) + start.cost() * interval;
    }
    return found;
  }
}
