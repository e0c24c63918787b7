package io.taskgate.engine.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.RateLimitPolicy;
import io.taskgate.api.RateLimitRejectedException;
import io.taskgate.api.TaskStatus;
import io.taskgate.api.UnknownTaskTypeException;
import io.taskgate.engine.admin.dto.TaskView;
import io.taskgate.engine.handler.HandlerInvoker;
import io.taskgate.store.StoredTask;
import io.taskgate.store.TaskAudit;
import io.taskgate.store.TaskQuery;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class TaskAdminTest {
  private static final List<String> KNOWN =
      List.of(
          "io.example.billing.SyncTenantData",
          "io.example.a.Report",
          "io.example.b.Report",
          "io.example.Jobs$Cleanup");

  @ParameterizedTest
  @CsvSource({
    "io.example.billing.SyncTenantData, io.example.billing.SyncTenantData",
    "SyncTenantData, io.example.billing.SyncTenantData",
    "io.example.a.Report, io.example.a.Report",
    "Cleanup, io.example.Jobs$Cleanup",
    "io.example.Jobs.Cleanup, io.example.Jobs$Cleanup",
    "io.example.Jobs$Cleanup, io.example.Jobs$Cleanup",
  })
  void aTypeIsFoundByFullOrUniqueSimpleName(String requested, String expected) {
    assertThat(TaskAdmin.resolveType(requested, KNOWN)).isEqualTo(expected);
  }

  @Test
  void anUnknownTypeIsRefusedNamingItAndTheKnownOnes() {
    assertThatThrownBy(() -> TaskAdmin.resolveType("Nope", KNOWN))
        .isInstanceOfSatisfying(
            UnknownTaskTypeException.class,
            e -> {
              assertThat(e.type()).isEqualTo("Nope");
              assertThat(e.ambiguous()).isFalse();
              assertThat(e.known()).containsExactly(KNOWN.stream().sorted().toArray(String[]::new));
            })
        .hasMessage(
            "No handler runs task type 'Nope'; known task types: io.example.Jobs$Cleanup,"
                + " io.example.a.Report, io.example.b.Report, io.example.billing.SyncTenantData");
  }

  @Test
  void aSharedSimpleNameIsAmbiguous() {
    assertThatThrownBy(() -> TaskAdmin.resolveType("Report", KNOWN))
        .isInstanceOfSatisfying(
            UnknownTaskTypeException.class,
            e -> {
              assertThat(e.ambiguous()).isTrue();
              assertThat(e.candidates())
                  .containsExactly("io.example.a.Report", "io.example.b.Report");
            })
        .hasMessageContaining("'Report' is ambiguous")
        .hasMessageContaining("give the full class name");
  }

  @ParameterizedTest
  @CsvSource(
      value = {"''", "billing.SyncTenantData", "syncTenantData", "NULL"},
      nullValues = "NULL")
  void nearMissesAndEmptyNamesAreUnknown(String requested) {
    assertThatThrownBy(() -> TaskAdmin.resolveType(requested, KNOWN))
        .isInstanceOf(UnknownTaskTypeException.class)
        .hasMessageContaining("known task types");
  }

  @Test
  void noHandlersAtAllSaysSo() {
    assertThatThrownBy(() -> TaskAdmin.resolveType("X", List.of()))
        .hasMessage("No handler runs task type 'X'; known task types: (none)");
  }

  @Test
  void aViewCarriesTheStoredFieldsAndTheHistoryOnlyWhenGiven() {
    UUID id = UUID.randomUUID();
    Instant t0 = Instant.parse("2026-01-01T10:00:00Z");
    StoredTask task =
        StoredTask.queued(id, "io.example.Jobs$Cleanup", "{\"a\":1}", "default", "k", t0, null, t0)
            .withAttempt(2)
            .withLastError("boom");
    TaskAudit audit = new TaskAudit(id, null, TaskStatus.QUEUED, t0, 0, null);

    TaskView listed = TaskView.of(task, null);
    TaskView single = TaskView.of(task, List.of(audit));

    assertThat(listed.history()).isNull();
    assertThat(listed)
        .extracting(
            TaskView::id,
            TaskView::type,
            TaskView::status,
            TaskView::taskKey,
            TaskView::attempt,
            TaskView::lastError,
            TaskView::payload)
        .containsExactly(
            id, "io.example.Jobs$Cleanup", TaskStatus.QUEUED, "k", 2, "boom", "{\"a\":1}");
    assertThat(single.history())
        .containsExactly(new TaskView.Change(null, TaskStatus.QUEUED, t0, 0, null));
  }

  @ParameterizedTest
  @CsvSource({
    "parked, PARKED",
    "HELD, HELD",
    " waiting , WAITING",
    "rejected-beyond-horizon, REJECTED_BEYOND_HORIZON",
    "REJECTED_DISCARDED, REJECTED_DISCARDED",
  })
  void aThrottleReasonIsReadFromItsQueryName(String text, TaskAdmin.Throttled expected) {
    assertThat(TaskAdmin.Throttled.parse(text)).contains(expected);
    assertThat(TaskAdmin.Throttled.parse(expected.param())).contains(expected);
  }

  @Test
  void anyReasonIsNoReasonAndAnUnknownOneIsRefusedNamingTheKnownOnes() {
    assertThat(TaskAdmin.Throttled.parse("Any")).isEmpty();
    assertThatThrownBy(() -> TaskAdmin.Throttled.parse("late"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "throttled must be any, parked, held, waiting, rejected-beyond-horizon or"
                + " rejected-discarded, was 'late'");
    assertThatThrownBy(() -> TaskAdmin.Throttled.parse(null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(TaskAdmin.Order.parse(" ")).isEqualTo(TaskAdmin.Order.NEWEST);
    assertThat(TaskAdmin.Order.parse("Due")).isEqualTo(TaskAdmin.Order.DUE);
    assertThatThrownBy(() -> TaskAdmin.Order.parse("random"))
        .hasMessage("sort must be newest, oldest or due, was 'random'");
  }

  @ParameterizedTest
  @EnumSource(RateLimitRejectedException.Reason.class)
  void aRejectionReasonMatchesTheLastErrorOfTasksRejectedForItAlone(
      RateLimitRejectedException.Reason reason) {
    String lastError =
        HandlerInvoker.describe(
            new RateLimitRejectedException(
                "io.example.Sync_Task",
                "io.example.SyncHandler",
                "tenant 7: reason=DISCARDED key=x",
                Instant.parse("2030-01-01T00:00:00Z"),
                RateLimitPolicy.of(5, Duration.ofSeconds(1)),
                reason));
    for (TaskAdmin.Throttled throttled :
        List.of(
            TaskAdmin.Throttled.REJECTED_BEYOND_HORIZON, TaskAdmin.Throttled.REJECTED_DISCARDED)) {
      boolean forThis = throttled.name().equals("REJECTED_" + reason.name());
      String pattern =
          throttled
              .lastErrorLike()
              .orElseThrow()
              .replace(TaskQuery.OWN_TYPE, "io.example.Sync_Task");
      assertThat(like(pattern, lastError)).as(throttled + " on " + lastError).isEqualTo(forThis);
    }
    assertThat(TaskAdmin.Throttled.PARKED.lastErrorLike()).isEmpty();
  }

  /** SQL LIKE without an escape character: '%' any text, '_' any one character. */
  private static boolean like(String pattern, String text) {
    StringBuilder regex = new StringBuilder();
    for (char c : pattern.toCharArray()) {
      regex.append(
          c == '%' ? ".*" : c == '_' ? "." : java.util.regex.Pattern.quote(String.valueOf(c)));
    }
    return java.util.regex.Pattern.compile(regex.toString(), java.util.regex.Pattern.DOTALL)
        .matcher(text)
        .matches();
  }
}
