package io.taskgate.core.ratelimit;

import io.taskgate.api.OverflowBehavior;
import io.taskgate.api.RateLimitPolicy;
import java.util.Map;

/** One scope's keys in a {@link GcraShard}: an open-addressed map from key to TAT. */
final class GcraTable {
  static final int INITIAL_CAPACITY = 16;

  final String name;
  RateLimitScope scope;
  RateLimitPolicy policy;
  long interval;
  long tolerance;
  long horizon;
  boolean startEmpty;
  boolean discard;

  String[] keys = new String[INITIAL_CAPACITY];
  int[] hashes = new int[INITIAL_CAPACITY];
  long[] tats = new long[INITIAL_CAPACITY];
  int size;
  Map<Object, GcraShard.Reservation> reservations;

  GcraTable(String name) {
    this.name = name;
  }

  void adopt(RateLimitPolicy policy) {
    this.policy = policy;
    this.interval = policy.emissionIntervalNanos();
    this.tolerance = policy.burstToleranceNanos();
    this.horizon = policy.maxReservationHorizonNanos();
    this.startEmpty = policy.startEmpty();
    this.discard = policy.overflow() == OverflowBehavior.DISCARD;
  }

  static int home(int hash, int mask) {
    int h = hash * 0x9E3779B9;
    return (h ^ (h >>> 16)) & mask;
  }

  /** The key's index, or {@code ~insertionIndex} when absent. */
  int find(String key, int hash) {
    String[] ks = keys;
    int mask = ks.length - 1;
    int i = home(hash, mask);
    String k;
    while ((k = ks[i]) != null) {
      if (k == key || (hashes[i] == hash && k.equals(key))) {
        return i;
      }
      i = (i + 1) & mask;
    }
    return ~i;
  }

  void insert(int index, String key, int hash, long tat) {
    if (size + 1 > (keys.length >> 2) * 3) {
      grow();
      index = ~find(key, hash);
    }
    keys[index] = key;
    hashes[index] = hash;
    tats[index] = tat;
    size++;
  }

  private void grow() {
    String[] oldKeys = keys;
    int[] oldHashes = hashes;
    long[] oldTats = tats;
    int capacity = oldKeys.length << 1;
    keys = new String[capacity];
    hashes = new int[capacity];
    tats = new long[capacity];
    int mask = capacity - 1;
    for (int j = 0; j < oldKeys.length; j++) {
      if (oldKeys[j] != null) {
        int i = home(oldHashes[j], mask);
        while (keys[i] != null) {
          i = (i + 1) & mask;
        }
        keys[i] = oldKeys[j];
        hashes[i] = oldHashes[j];
        tats[i] = oldTats[j];
      }
    }
  }

  int evictFull(long now) {
    int evicted = 0;
    int i = 0;
    while (i < keys.length) {
      if (keys[i] != null && tats[i] <= now) {
        removeAt(i);
        evicted++;
      } else {
        i++;
      }
    }
    return evicted;
  }

  /** Backward-shift deletion: pulls later entries of the probe run into the hole. */
  private void removeAt(int hole) {
    int mask = keys.length - 1;
    int j = hole;
    while (true) {
      j = (j + 1) & mask;
      if (keys[j] == null) {
        break;
      }
      int home = home(hashes[j], mask);
      if (((j - home) & mask) >= ((j - hole) & mask)) {
        keys[hole] = keys[j];
        hashes[hole] = hashes[j];
        tats[hole] = tats[j];
        hole = j;
      }
    }
    keys[hole] = null;
    size--;
  }
}
