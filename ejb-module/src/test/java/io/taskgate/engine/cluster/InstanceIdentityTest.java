package io.taskgate.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class InstanceIdentityTest {

  @Test
  void aConfiguredIdentityIsUsedAsItIs() {
    assertThat(InstanceIdentity.of(Optional.of(" node-1 "), "box", "/srv/a")).isEqualTo("node-1");
  }

  @Test
  void withoutOneTheSameServerDirectoryGivesTheSameNameAndAnotherDirectoryAnother() {
    String first = InstanceIdentity.of(Optional.empty(), "Box.Example", "/srv/payara/a");
    String again = InstanceIdentity.of(Optional.empty(), "Box.Example", "/srv/payara/a");
    String other = InstanceIdentity.of(Optional.empty(), "Box.Example", "/srv/payara/b");

    assertThat(first).isEqualTo(again).matches("box\\.example-[0-9a-f]{8}");
    assertThat(other).isNotEqualTo(first).startsWith("box.example-");
  }

  @Test
  void aLongHostIsCutSoThatTheNameFitsTheColumn() {
    String id = InstanceIdentity.of(Optional.empty(), "h".repeat(100), "/srv");
    assertThat(id).hasSize(InstanceIdentity.MAX_LENGTH).endsWith(id.substring(id.length() - 9));
    assertThat(id.charAt(id.length() - 9)).isEqualTo('-');
  }

  @Test
  void aConfiguredIdentityThatCannotBeStoredIsRefusedNamingTheSetting() {
    assertThatThrownBy(() -> InstanceIdentity.of(Optional.of("node 1"), "box", "/srv"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Configuration taskgate.cluster.instance-id must be 1 to 64 letters, digits, '.', '_'"
                + " or '-', was 'node 1'");
    assertThatThrownBy(() -> InstanceIdentity.of(Optional.of("  "), "box", "/srv"))
        .hasMessageContaining("was ''");
  }
}
