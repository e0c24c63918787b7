package io.taskgate.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class InstanceIdentityTest {

  @Test
  void aConfiguredIdentityIsUsedAsItIs() {
    assertThat(InstanceIdentity.of(Optional.of(" node-1 "), "box")).isEqualTo("node-1");
  }

  @Test
  void withoutOneItIsTheHostNameAsTheDatabaseCanKeepIt() {
    assertThat(InstanceIdentity.of(Optional.empty(), "Box.Example")).isEqualTo("box.example");
    assertThat(InstanceIdentity.of(Optional.empty(), "fe80::1%eth0")).isEqualTo("fe80--1-eth0");
    assertThat(InstanceIdentity.of(Optional.empty(), "h".repeat(100)))
        .hasSize(InstanceIdentity.MAX_LENGTH);
    assertThat(InstanceIdentity.of(Optional.empty(), "")).isEqualTo("localhost");
  }

  @Test
  void aConfiguredIdentityThatCannotBeStoredIsRefusedNamingTheSetting() {
    assertThatThrownBy(() -> InstanceIdentity.of(Optional.of("node 1"), "box"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Configuration taskgate.cluster.instance-id must be 1 to 64 letters, digits, '.', '_'"
                + " or '-', was 'node 1'");
    assertThatThrownBy(() -> InstanceIdentity.of(Optional.of("  "), "box"))
        .hasMessageContaining("was ''");
  }
}
