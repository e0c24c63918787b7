package io.taskgate.core.task;

import static io.taskgate.api.TaskStatus.CANCELLED;
import static io.taskgate.api.TaskStatus.COMPLETED;
import static io.taskgate.api.TaskStatus.FAILED;
import static io.taskgate.api.TaskStatus.IN_PROGRESS;
import static io.taskgate.api.TaskStatus.QUEUED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskgate.api.TaskStatus;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class TaskStatesTest {
  /** Every one of the 25 pairs, with the expected answer written out. */
  static Stream<Arguments> everyPair() {
    return Stream.of(
        Arguments.of(QUEUED, QUEUED, true),
        Arguments.of(QUEUED, IN_PROGRESS, true),
        Arguments.of(QUEUED, COMPLETED, true),
        Arguments.of(QUEUED, FAILED, true),
        Arguments.of(QUEUED, CANCELLED, true),
        Arguments.of(IN_PROGRESS, QUEUED, true),
        Arguments.of(IN_PROGRESS, IN_PROGRESS, false),
        Arguments.of(IN_PROGRESS, COMPLETED, true),
        Arguments.of(IN_PROGRESS, FAILED, true),
        Arguments.of(IN_PROGRESS, CANCELLED, true),
        Arguments.of(COMPLETED, QUEUED, false),
        Arguments.of(COMPLETED, IN_PROGRESS, false),
        Arguments.of(COMPLETED, COMPLETED, false),
        Arguments.of(COMPLETED, FAILED, false),
        Arguments.of(COMPLETED, CANCELLED, false),
        Arguments.of(FAILED, QUEUED, true), // requeued
        Arguments.of(FAILED, IN_PROGRESS, false),
        Arguments.of(FAILED, COMPLETED, false),
        Arguments.of(FAILED, FAILED, false),
        Arguments.of(FAILED, CANCELLED, false),
        Arguments.of(CANCELLED, QUEUED, true), // requeued
        Arguments.of(CANCELLED, IN_PROGRESS, false),
        Arguments.of(CANCELLED, COMPLETED, false),
        Arguments.of(CANCELLED, FAILED, false),
        Arguments.of(CANCELLED, CANCELLED, false));
  }

  @Test
  void theTableCoversEveryPairExactlyOnce() {
    assertThat(everyPair().map(a -> List.of(a.get()[0], a.get()[1])).distinct().count())
        .isEqualTo((long) TaskStatus.values().length * TaskStatus.values().length);
  }

  @ParameterizedTest(name = "{0} -> {1}: {2}")
  @MethodSource("everyPair")
  void allowedFollowsTheTable(TaskStatus from, TaskStatus to, boolean expected) {
    assertThat(TaskStates.allowed(from, to)).isEqualTo(expected);
    assertThat(TaskStates.next(from).contains(to)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} -> {1}: {2}")
  @MethodSource("everyPair")
  void checkThrowsExactlyForForbiddenMoves(TaskStatus from, TaskStatus to, boolean expected) {
    UUID id = UUID.fromString("00000000-0000-0000-0000-000000000042");
    if (expected) {
      assertThatCode(() -> TaskStates.check(id, from, to)).doesNotThrowAnyException();
    } else {
      assertThatThrownBy(() -> TaskStates.check(id, from, to))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("Task " + id + " cannot move from " + from + " to " + to);
    }
  }

  @ParameterizedTest
  @EnumSource(TaskStatus.class)
  void endedTasksMoveOnlyBackToQueuedAndACompletedOneNever(TaskStatus from) {
    if (from.terminal()) {
      assertThat(TaskStates.next(from))
          .isEqualTo(from == COMPLETED ? EnumSet.noneOf(TaskStatus.class) : EnumSet.of(QUEUED));
    }
  }

  @Test
  void nextIsTheListedSetAndUnmodifiable() {
    assertThat(TaskStates.next(QUEUED))
        .isEqualTo(EnumSet.of(QUEUED, IN_PROGRESS, FAILED, CANCELLED, COMPLETED));
    assertThat(TaskStates.next(IN_PROGRESS))
        .isEqualTo(EnumSet.of(QUEUED, COMPLETED, FAILED, CANCELLED));
    Set<TaskStatus> next = TaskStates.next(QUEUED);
    assertThatThrownBy(() -> next.add(QUEUED)).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aMissingStatusIsNamed() {
    assertThatThrownBy(() -> TaskStates.allowed(null, QUEUED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Task status 'from' must not be null");
    assertThatThrownBy(() -> TaskStates.allowed(QUEUED, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Task status 'to' must not be null");
  }
}
