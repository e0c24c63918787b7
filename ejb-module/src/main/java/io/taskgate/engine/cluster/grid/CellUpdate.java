package io.taskgate.engine.cluster.grid;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.ExtendedMapEntry;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.DataSerializable;
import io.taskgate.core.ratelimit.GcraCell;
import io.taskgate.core.ratelimit.RateLimitDecision;
import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * One atomic update of a key's {@link GcraCell}, run by the grid on the member that owns the key
 * (and again, with the same inputs and so the same result, on its backup): a reservation, a release
 * or a raise of the TAT. Its inputs travel as plain values, the current time included, so that the
 * update is deterministic wherever it runs. The entry is written back only when it changed, with a
 * time to live until the cell stops mattering ({@link GcraCell#neededUntil}), which is how idle
 * keys leave the grid.
 *
 * <p>The answer is three longs: the decision's outcome ordinal, slot and retry-after (for a
 * release, 1 when a reservation was forgotten).
 */
public final class CellUpdate implements EntryProcessor<String, byte[], long[]>, DataSerializable {
  private static final long serialVersionUID = 1L;

  /** What the update does. */
  enum Kind {
    RESERVE,
    RELEASE,
    RAISE
  }

  /** The shortest time to live of an entry: the grid's expiry has a granularity of its own. */
  static final long MIN_TTL_MILLIS = 1_000;

  private Kind kind;
  private long interval;
  private long tolerance;
  private long horizon;
  private boolean startEmpty;
  private boolean discard;
  private boolean hasId;
  private long idHigh;
  private long idLow;
  private long now;
  private long floor;

  /** For the grid's deserialization. */
  public CellUpdate() {}

  private CellUpdate(Kind kind, GcraCell.Rules rules, UUID id, long now, long floor) {
    this.kind = kind;
    if (rules != null) {
      this.interval = rules.interval();
      this.tolerance = rules.tolerance();
      this.horizon = rules.horizon();
      this.startEmpty = rules.startEmpty();
      this.discard = rules.discard();
    }
    this.hasId = id != null;
    if (id != null) {
      this.idHigh = id.getMostSignificantBits();
      this.idLow = id.getLeastSignificantBits();
    }
    this.now = now;
    this.floor = floor;
  }

  /** Reserves under {@code rules} at {@code now}; see {@link GcraCell#reserve}. */
  static CellUpdate reserve(GcraCell.Rules rules, UUID id, long now) {
    return new CellUpdate(Kind.RESERVE, rules, id, now, 0);
  }

  /** Forgets the reservation {@code id}; see {@link GcraCell#release}. */
  static CellUpdate release(UUID id, long now) {
    return new CellUpdate(Kind.RELEASE, null, id, now, 0);
  }

  /** Moves the TAT to at least {@code floor}; see {@link GcraCell#raise}. */
  static CellUpdate raise(long floor, long now) {
    return new CellUpdate(Kind.RAISE, null, null, now, floor);
  }

  @Override
  public long[] process(Map.Entry<String, byte[]> entry) {
    GcraCell cell = GcraCell.decode(entry.getValue());
    long[] answer;
    switch (kind) {
      case RESERVE -> {
        RateLimitDecision d =
            cell.reserve(
                new GcraCell.Rules(interval, tolerance, horizon, startEmpty, discard),
                hasId ? new UUID(idHigh, idLow) : null,
                now);
        answer = new long[] {d.outcome().ordinal(), d.slotEpochNanos(), d.retryAfterNanos()};
      }
      case RELEASE -> answer = new long[] {cell.release(new UUID(idHigh, idLow)) ? 1 : 0, 0, 0};
      default -> {
        cell.raise(floor);
        answer = new long[] {0, 0, 0};
      }
    }
    if (cell.changed()) {
      long ttl = Math.max(MIN_TTL_MILLIS, ceilMillis(cell.neededUntil(now) - now));
      if (entry instanceof ExtendedMapEntry<String, byte[]> extended) {
        extended.setValue(cell.encode(), ttl, TimeUnit.MILLISECONDS);
      } else {
        entry.setValue(cell.encode());
      }
    }
    return answer;
  }

  /** The decision a reservation's answer encodes. */
  static RateLimitDecision decision(long[] answer) {
    return new RateLimitDecision(
        RateLimitDecision.Outcome.values()[(int) answer[0]], answer[1], answer[2]);
  }

  private static long ceilMillis(long nanos) {
    return (nanos + 999_999) / 1_000_000;
  }

  @Override
  public void writeData(ObjectDataOutput out) throws IOException {
    out.writeByte(kind.ordinal());
    out.writeLong(interval);
    out.writeLong(tolerance);
    out.writeLong(horizon);
    out.writeByte((startEmpty ? 1 : 0) | (discard ? 2 : 0) | (hasId ? 4 : 0));
    out.writeLong(idHigh);
    out.writeLong(idLow);
    out.writeLong(now);
    out.writeLong(floor);
  }

  @Override
  public void readData(ObjectDataInput in) throws IOException {
    kind = Kind.values()[in.readByte()];
    interval = in.readLong();
    tolerance = in.readLong();
    horizon = in.readLong();
    byte flags = in.readByte();
    startEmpty = (flags & 1) != 0;
    discard = (flags & 2) != 0;
    hasId = (flags & 4) != 0;
    idHigh = in.readLong();
    idLow = in.readLong();
    now = in.readLong();
    floor = in.readLong();
  }
}
