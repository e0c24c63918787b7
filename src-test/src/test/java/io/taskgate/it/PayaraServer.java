package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Payara Server's asadmin, for the tests that run domains of their own. */
final class PayaraServer {
  private PayaraServer() {}

  /** Runs asadmin with the JDK running the tests; answers its exit code. */
  static int asadmin(Map<String, String> environment, String... arguments)
      throws IOException, InterruptedException {
    Path cli = Path.of(ItConfig.required("payara.home"), "glassfish/lib/client/appserver-cli.jar");
    if (!Files.isRegularFile(cli)) {
      throw new IllegalStateException(
          cli
              + " is missing: Payara Server is unpacked in pre-integration-test unless"
              + " -Dtaskgate.server.skip=true");
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-jar");
    command.add(cli.toString());
    command.addAll(List.of(arguments));
    ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
    builder.environment().putAll(environment);
    Process process = builder.start();
    if (!process.waitFor(5, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new IllegalStateException("asadmin " + String.join(" ", arguments) + " hung");
    }
    return process.exitValue();
  }

  /** Creates {@code domain} in {@code domainDir}, its ports from {@code ports}00, no password. */
  static void createDomain(Path domainDir, String domain, String ports)
      throws IOException, InterruptedException {
    require(
        asadmin(
            Map.of(),
            "create-domain",
            "--nopassword",
            "--portbase",
            ports + "00",
            "--domaindir",
            domainDir.toString(),
            domain));
  }

  static void require(int exitCode) {
    assertThat(exitCode).as("asadmin exit code (its output is above)").isZero();
  }
}
