package io.taskgate.it;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits in tests for a condition rather than for a fixed time: polls it until it holds, and fails
 * with what was last seen once the time is up. The one place the tests poll; a test that sleeps a
 * fixed time does so only where real time passing is what it tests, and says so.
 */
public final class Await {
  /** How often a condition is looked at, unless a caller says otherwise. */
  public static final Duration EVERY = Duration.ofMillis(10);

  private Await() {}

  /** A value to look at; it may throw, which fails the wait at once. */
  @FunctionalInterface
  public interface Check<T> {
    T get() throws Exception;
  }

  /**
   * Polls {@code value} every {@code every} until {@code done} holds for it, and returns that
   * value.
   *
   * @throws AssertionError after {@code timeout}, with {@code failure} of the last value seen
   */
  public static <T> T until(
      Check<T> value,
      Predicate<? super T> done,
      Duration timeout,
      Duration every,
      Function<? super T, String> failure)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      T seen = read(value);
      if (done.test(seen)) {
        return seen;
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new AssertionError("not within " + timeout + ": " + failure.apply(seen));
      }
      Thread.sleep(every.toMillis());
    }
  }

  /**
   * {@link #until(Check, Predicate, Duration, Duration, Function)}, looking every {@link #EVERY}.
   */
  public static <T> T until(
      Check<T> value,
      Predicate<? super T> done,
      Duration timeout,
      Function<? super T, String> failure)
      throws InterruptedException {
    return until(value, done, timeout, EVERY, failure);
  }

  /** Polls {@code condition} every {@link #EVERY} until it holds; fails saying {@code what}. */
  public static void until(BooleanSupplier condition, Duration timeout, Supplier<String> what)
      throws InterruptedException {
    until(condition::getAsBoolean, Boolean::booleanValue, timeout, EVERY, seen -> what.get());
  }

  private static <T> T read(Check<T> value) {
    try {
      return value.get();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new AssertionError("the condition could not be read: " + e, e);
    }
  }

  /** Waits until the wall clock is in the first quarter of an interval of {@code length}. */
  public static void earlyIn(Duration length) throws InterruptedException {
    long millis = length.toMillis();
    until(
        () -> java.time.Instant.now().toEpochMilli() % millis < millis / 4,
        Duration.ofSeconds(5),
        () -> "never early in an interval");
  }
}
