package io.taskgate.web.admin;

import io.taskgate.api.LimiterAlgorithm;
import io.taskgate.api.LimiterStats;
import io.taskgate.core.limit.Limit;
import io.taskgate.core.time.HumanDuration;
import io.taskgate.engine.admin.LastErrors;
import io.taskgate.engine.admin.dto.PolicyView;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * {@code #{fmt}}: how the pages write instants, durations, task types and policies. Instants are
 * UTC, to the second (the browser shows them in its time zone), with how far they are from now.
 */
@Named("fmt")
@ApplicationScoped
public class Display {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  @Inject InstantSource clock;

  /**
   * {@code 2026-11-22 05:12:03 UTC}; empty for null. The pages write instants with {@code
   * <tg:time>}, which the browser turns into its own time zone, keeping this as the tooltip.
   */
  public String time(Instant at) {
    return at == null ? "" : TIME.format(at);
  }

  /** {@code 2026-11-22T05:12:03.250Z}, for a {@code <time datetime>}; empty for null. */
  public String iso(Instant at) {
    return at == null ? "" : at.toString();
  }

  /** {@code in 8.2 s} or {@code 3 s ago}; empty for null. */
  public String relative(Instant at) {
    return at == null ? "" : relative(at, clock.instant());
  }

  static String relative(Instant at, Instant now) {
    long millis = Duration.between(now, at).toMillis();
    String amount = HumanDuration.of(Duration.ofMillis(Math.abs(millis)));
    return millis >= 0 ? "in " + amount : amount + " ago";
  }

  /** {@code 200 ms}, {@code 1.5 s}, {@code 10 s}, {@code 1 min}, {@code 2 h}; empty for null. */
  public String duration(Duration duration) {
    return HumanDuration.of(duration);
  }

  /** An ISO-8601 duration's text as a duration, for {@link #duration}. */
  public Duration parseDuration(String text) {
    return Duration.parse(text);
  }

  /**
   * A task's last error as a sentence ({@link LastErrors#sentence}): the gate's rejection says why;
   * an exception's text is its message, then its class's simple name in brackets; empty for null.
   */
  public String error(String lastError) {
    return LastErrors.sentence(lastError);
  }

  /** The simple name of a task type's class name ({@code a.b.Outer$Inner}: {@code Inner}). */
  public String simpleType(String className) {
    if (className == null) {
      return "";
    }
    int cut = Math.max(className.lastIndexOf('.'), className.lastIndexOf('$'));
    return className.substring(cut + 1);
  }

  /** {@code 15 per 1 min, burst 15}, with the options that differ from the defaults. */
  public String policy(PolicyView policy) {
    if (policy == null) {
      return "";
    }
    StringBuilder text = new StringBuilder(limit(policy).describe());
    if (policy.startEmpty()) {
      text.append(", starts empty");
    }
    if (!policy.throttleRetries()) {
      text.append(", retries unthrottled");
    }
    if ("DISCARD".equals(policy.overflow())) {
      text.append(", overflow DISCARD");
    }
    return text.toString();
  }

  /** A policy's rate: {@code 15 per 1 min}; empty for null. */
  public String rate(PolicyView policy) {
    return policy == null ? "" : limit(policy).rate();
  }

  /** A limiter's limit now: {@code 5 per 1 s, burst 5}, or {@code 5 at once}; empty for null. */
  public String limiter(LimiterStats stats) {
    if (stats == null) {
      return "";
    }
    return stats.algorithm() == LimiterAlgorithm.CONCURRENCY
        ? stats.permits() + " at once"
        : new Limit(stats.permits(), stats.period(), stats.burst()).describe();
  }

  private static Limit limit(PolicyView policy) {
    return new Limit(policy.permits(), policy.period(), policy.burst());
  }

  /** {@code text} encoded for a URL's query. */
  public String url(String text) {
    return encode(text);
  }

  static String encode(String text) {
    return text == null ? "" : URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
