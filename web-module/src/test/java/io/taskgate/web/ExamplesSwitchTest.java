package io.taskgate.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.web.api.TasksResource;
import io.taskgate.web.examples.SyncTenantDataHandler;
import org.junit.jupiter.api.Test;

class ExamplesSwitchTest {

  @Test
  void onlyTheExamplesPackageIsVetoedAndOnlyWhenDisabled() {
    assertThat(ExamplesSwitch.vetoes(false, SyncTenantDataHandler.class)).isTrue();
    assertThat(ExamplesSwitch.vetoes(true, SyncTenantDataHandler.class)).isFalse();
    assertThat(ExamplesSwitch.vetoes(false, TasksResource.class)).isFalse();
    assertThat(ExamplesSwitch.vetoes(false, ExamplesSwitch.class)).isFalse();
  }
}
