package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.taskgate.api.TaskStatus;
import io.taskgate.test.ManualTaskgate;
import io.taskgate.test.Run;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The invoice handler's policy, tested with {@code taskgate-test} alone: no server, no database, no
 * sleeping. Each customer gets two invoices a second, evenly spaced, while other customers' go out
 * at once; a failed mail is tried again a second later.
 */
class SendInvoiceHandlerTest {
  private static final Instant T0 = Instant.parse("2030-01-01T09:00:00Z");

  /** The mail server, failing when told to. */
  static class TestMailer extends Mailer {
    final List<String> sent = new ArrayList<>();
    int failuresLeft;

    @Override
    void send(UUID orderId, String customer, int attempt) {
      if (failuresLeft > 0) {
        failuresLeft--;
        throw new IllegalStateException("mail server unavailable");
      }
      sent.add(customer);
    }
  }

  private final TestMailer mailer = new TestMailer();
  private final ManualTaskgate taskgate = ManualTaskgate.at(T0);

  @BeforeEach
  void registerTheHandler() {
    SendInvoiceHandler handler = new SendInvoiceHandler();
    handler.mailer = mailer;
    taskgate.register(handler);
  }

  @Test
  void aBusyCustomerGetsTwoInvoicesASecondWhileAnotherCustomersGoesOutAtOnce() {
    for (int i = 0; i < 4; i++) {
      taskgate.dispatch(new SendInvoice(UUID.randomUUID(), "acme"));
    }
    UUID other = taskgate.dispatch(new SendInvoice(UUID.randomUUID(), "globex"));

    taskgate.advance(Duration.ofSeconds(2));

    assertThat(taskgate.runs())
        .extracting(r -> ((SendInvoice) r.task()).customer(), Run::startedAt)
        .containsExactly(
            tuple("acme", T0),
            tuple("globex", T0),
            tuple("acme", T0.plusMillis(500)),
            tuple("acme", T0.plusMillis(1000)),
            tuple("acme", T0.plusMillis(1500)));
    assertThat(taskgate.runsOf(other)).extracting(Run::throttledUntil).containsOnlyNulls();
    assertThat(mailer.sent).hasSize(5);
  }

  @Test
  void aFailedMailIsTriedAgainAboutASecondLaterAndTheThirdFailureFailsTheTask() {
    mailer.failuresLeft = 1;
    UUID once = taskgate.dispatch(new SendInvoice(UUID.randomUUID(), "acme"));
    taskgate.advance(Duration.ofSeconds(5));

    List<Run> runs = taskgate.runsOf(once);
    assertThat(runs)
        .extracting(Run::attempt, Run::outcome)
        .containsExactly(tuple(1, Run.Outcome.RETRY), tuple(2, Run.Outcome.COMPLETED));
    // a second later, give or take the policy's default jitter of 20 %
    assertThat(runs.get(1).startedAt()).isBetween(T0.plusMillis(800), T0.plusMillis(1200));

    mailer.failuresLeft = 3;
    UUID never = taskgate.dispatch(new SendInvoice(UUID.randomUUID(), "initech"));
    taskgate.advance(Duration.ofSeconds(5));

    assertThat(taskgate.runsOf(never))
        .extracting(Run::outcome)
        .last()
        .isEqualTo(Run.Outcome.FAILED);
    assertThat(taskgate.runsOf(never)).hasSize(3);
    assertThat(taskgate.status(never)).isEqualTo(TaskStatus.FAILED);
  }
}
