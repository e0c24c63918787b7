package io.taskgate.api;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.Inherited;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * Rate-limits the calls of a CDI bean's method (or of every business method of a class): a call
 * over the limit throws {@link RateLimitExceededException} instead of running. Works on any CDI
 * bean, including a JAX-RS resource that is one (give it a scope such as {@code @RequestScoped}),
 * where the rejection answers 429 (see {@code io.taskgate.jaxrs}).
 *
 * <pre>{@code
 * @ApplicationScoped
 * public class Quotes {
 *   @RateLimited(permits = 5, period = "PT1S", key = "#{order.tenantId}")
 *   public Quote quote(Order order) { … }
 *
 *   @RateLimited("partner-api")                 // defined in MicroProfile Config
 *   public Stock stock(@RateLimitKey String sku) { … }
 * }
 * }</pre>
 *
 * <p>A limiter has a name: {@link #value()}, or {@code Class#method} when empty. The MicroProfile
 * Config keys {@code taskgate.limiter.<name>.algorithm}, {@code .permits}, {@code .period}, {@code
 * .burst}, {@code .segments}, {@code .max-keys}, {@code .max-wait}, {@code .queue-limit} and {@code
 * .queue-order} override the annotation's values, so that a limit can be tuned without a rebuild; a
 * name with {@code permits = 0} takes all of its values from there. Methods naming the same limiter
 * share its budget. Everything is checked when the application deploys: an invalid value, a named
 * limiter without permits anywhere, or two keys on one method fail the deployment with a message
 * naming the method, the option and the value.
 *
 * <p>Keys: with no {@link #key()} and no {@link RateLimitKey} parameter, all calls share one
 * budget; otherwise each key keeps its own, memory bounded by {@code max-keys} (default 10,000)
 * with idle keys dropped; a new key beyond the cap is let through (fail open) and counted.
 */
@InterceptorBinding
@Inherited
@Documented
@Retention(RUNTIME)
@Target({TYPE, METHOD})
@Repeatable(RateLimited.List.class)
public @interface RateLimited {

  /**
   * Several limits on one method, such as one per user and one for everybody: a call runs only if
   * every one of them grants it, and takes nothing from any when one refuses (permits a concurrent
   * caller takes in between may still be spent). Chained limits do not wait: their {@code maxWait}
   * must be zero.
   */
  @Inherited
  @Documented
  @Retention(RUNTIME)
  @Target({TYPE, METHOD})
  @interface List {
    /** The limits, checked in this order. */
    RateLimited[] value();
  }

  /** The value of {@link #key()} that keys each call by its caller. */
  String CALLER = "caller";

  /**
   * The value of {@link #burst()} that means "the algorithm's default" ({@link
   * LimiterAlgorithm#defaultBurst}): 1 for {@link LimiterAlgorithm#GCRA}, {@link #permits()} for
   * {@link LimiterAlgorithm#TOKEN_BUCKET}.
   */
  int DEFAULT_BURST = -1;

  /** The limiter's name; empty: {@code Class#method} of the annotated method. */
  @Nonbinding
  String value() default "";

  /** How calls are counted (default {@link LimiterAlgorithm#GCRA}). */
  @Nonbinding
  LimiterAlgorithm algorithm() default LimiterAlgorithm.GCRA;

  /**
   * Calls allowed per {@link #period()} per key (for {@link LimiterAlgorithm#CONCURRENCY}: at
   * once); 0: taken from {@code taskgate.limiter.<name>.permits}.
   */
  @Nonbinding
  int permits() default 0;

  /** The period (ISO-8601, e.g. {@code "PT1S"}), positive. Not used by concurrency limiters. */
  @Nonbinding
  String period() default "PT1S";

  /**
   * Calls allowed back to back after an idle spell ({@link LimiterAlgorithm#GCRA}; the bucket's
   * size for {@link LimiterAlgorithm#TOKEN_BUCKET}; unused by the others). Default for GCRA: 1, so
   * the calls are spread evenly, one every {@code period / permits} ({@code permits = 20, period =
   * "PT1S"}: one call every 50 ms, never 20 at once); set it to let a quiet caller save budget up,
   * {@code burst = permits} for the whole period's budget at once. Default for the token bucket:
   * {@link #permits()}, a full bucket.
   */
  @Nonbinding
  int burst() default DEFAULT_BURST;

  /**
   * The call's key: empty (one budget, unless a parameter is marked {@link RateLimitKey}), {@link
   * #CALLER} (the authenticated caller's name, else the HTTP client's address, else {@code
   * anonymous}), or a Jakarta EL expression over the arguments by parameter name, such as {@code
   * "#{order.tenantId}"} (names need {@code javac -parameters}; without it they are {@code arg0},
   * {@code arg1}, …).
   */
  @Nonbinding
  String key() default "";

  /**
   * How long a call over the limit may wait for a permit (ISO-8601, default {@code "PT0S"}: it is
   * refused at once). A synchronous caller blocks; a method returning a {@code CompletionStage}
   * returns at once and runs when its permit comes, holding no thread while it waits. A call that
   * waited {@code maxWait} in vain is refused.
   */
  @Nonbinding
  String maxWait() default "PT0S";

  /**
   * The most calls of one key waiting at once (default 100); a call beyond it is refused at once
   * ({@link QueueOrder#OLDEST_FIRST}) or makes the oldest waiter be refused ({@link
   * QueueOrder#NEWEST_FIRST}).
   */
  @Nonbinding
  int queueLimit() default 100;

  /** Which waiting call goes first when a permit comes back (default oldest first). */
  @Nonbinding
  QueueOrder queueOrder() default QueueOrder.OLDEST_FIRST;

  /**
   * The name of a method of the same bean to call instead when a call is refused, so that the
   * caller gets a result rather than an exception: same return type, the same parameters, and
   * optionally a last {@link RateLimitExceededException} parameter. Empty (the default): the
   * refusal is thrown.
   */
  @Nonbinding
  String fallback() default "";
}
