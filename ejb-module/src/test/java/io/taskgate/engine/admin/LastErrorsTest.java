package io.taskgate.engine.admin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LastErrorsTest {
  static final String REJECTED =
      "io.taskgate.api.RateLimitRejectedException: Rate limit rejected task of type a.Sync:"
          + " reason=DISCARDED key=acme slotUtc=2030-01-01T00:00:00Z handler=a.SyncHandler permits=5";

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "java.lang.IllegalStateException: the partner said 503 | the partner said 503",
        "com.acme.Outer$Failure: boom | boom",
        "java.lang.RuntimeException: java.io.IOException: connection reset | connection reset",
        "com.acme.SyncFailed: tenant 7: com.acme.db.Timeout: after 5 s | tenant 7: after 5 s",
        "java.lang.NullPointerException | failed without a message",
        "java.lang.RuntimeException: java.lang.NullPointerException | failed without a message",
        "Cancelled by admin on the admin page | Cancelled by admin on the admin page",
        "no handler in this application runs task type com.acme.Sync | no handler in this"
            + " application runs task type com.acme.Sync"
      })
  void aViewerReadsTheMessageWithoutClassNames(String stored, String shown) {
    assertThat(LastErrors.withoutClassNames(stored)).isEqualTo(shown);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "java.lang.IllegalStateException: the partner said 503 | the partner said 503"
            + " (IllegalStateException)",
        "com.acme.Outer$Failure: boom | boom (Outer$Failure)",
        "Cancelled by admin | Cancelled by admin"
      })
  void thePagesReadASentenceNamingTheSimpleClass(String stored, String shown) {
    assertThat(LastErrors.sentence(stored)).isEqualTo(shown);
  }

  @org.junit.jupiter.api.Test
  void aRejectionReadsTheSameForBothAndNullStaysEmpty() {
    String sentence = "Rejected by the rate limit: key acme had no budget, and its policy discards";
    assertThat(LastErrors.sentence(REJECTED)).isEqualTo(sentence);
    assertThat(LastErrors.withoutClassNames(REJECTED)).isEqualTo(sentence);
    assertThat(LastErrors.withoutClassNames(null)).isNull();
    assertThat(LastErrors.sentence(null)).isEmpty();
  }
}
