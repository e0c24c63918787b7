package io.taskgate.web.admin;

import io.taskgate.core.limit.Limit;
import io.taskgate.core.limit.LimitSource;
import io.taskgate.core.limit.LimitText;
import java.io.Serializable;
import java.util.function.IntUnaryOperator;

/**
 * The permits, period and burst fields of a form that changes a limit, read as the REST API reads
 * them ({@link LimitText}): a field that does not read, or breaks the limit's rules, is an {@link
 * io.taskgate.core.limit.InvalidLimitException} naming it ("permits must be at least 1, was 0").
 */
public class LimitForm implements Serializable {
  private static final long serialVersionUID = 1L;

  private String permits;
  private String period;
  private String burst;

  /**
   * The limit of the fields, the burst defaulting to {@code defaultBurst} of the permits (a
   * limiter's algorithm's default).
   */
  Limit limit(IntUnaryOperator defaultBurst) {
    return text().limit(defaultBurst);
  }

  /** The limit of the fields as a task type's rate (the burst defaults to the permits). */
  Limit taskRate() {
    return text().taskRate();
  }

  private LimitText text() {
    return LimitText.of(
        LimitSource.jsonFields(),
        field ->
            switch (field) {
              case Limit.PERMITS -> given(permits);
              case Limit.PERIOD -> given(period);
              case Limit.BURST -> given(burst);
              default -> null;
            });
  }

  private static String given(String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }

  public String getPermits() {
    return permits;
  }

  public void setPermits(String permits) {
    this.permits = permits;
  }

  public String getPeriod() {
    return period;
  }

  public void setPeriod(String period) {
    this.period = period;
  }

  public String getBurst() {
    return burst;
  }

  public void setBurst(String burst) {
    this.burst = burst;
  }
}
