package io.taskgate.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TaskgateVersionTest {
  @Test
  void theBuildWritesTheVersionBesideTheClass() {
    assertThat(TaskgateVersion.CURRENT).matches("\\d+\\.\\d+.*");
  }
}
