package io.taskgate.store;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The rate-limited keys' budgets as their starts left them, saved so that a restart goes on from
 * them instead of from full buckets, and, per instance, up to when every start it made is saved.
 * Every method is one short transaction of its own; the current time is passed in, never read.
 */
public interface BudgetStore {

  /**
   * Saves {@code budgets} (a key's saved time only ever moves later: a save that comes late never
   * moves it back) and records that every start {@code instance} made before {@code savedAt} is
   * saved, in one transaction.
   */
  void save(Collection<SavedBudget> budgets, String instance, Instant savedAt);

  /** The saved budgets whose theoretical arrival time is after {@code nowEpochNanos}. */
  List<SavedBudget> load(long nowEpochNanos);

  /** Per instance that ever saved, up to when its starts are saved. */
  Map<String, Instant> marks();

  /** Up to when {@code instance}'s starts are saved; empty if it never saved. */
  default Optional<Instant> mark(String instance) {
    return Optional.ofNullable(marks().get(instance));
  }

  /**
   * The (task type, rate-limit key) of every task of {@code owner}'s that may have started since
   * {@code since}: its row changed at or after it, or it is in progress.
   */
  List<TypedKey> keysTouchedSince(String owner, Instant since);

  /** Deletes the budgets whose theoretical arrival time is before {@code nowEpochNanos}. */
  int prune(long nowEpochNanos);

  /**
   * A task type's rate-limit key.
   *
   * @param type the task type's name
   * @param key the key
   */
  record TypedKey(String type, String key) {}
}
