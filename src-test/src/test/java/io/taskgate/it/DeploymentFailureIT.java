package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.it.broken.BadPolicy;
import io.taskgate.it.duplicate.TwoHandlers;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * Handlers that cannot be used fail the deployment, on a real Payara Micro, with a message naming
 * the handler and the problem: an invalid rate-limit policy, two handlers for one task type. Not
 * Arquillian: the deployments are expected to fail, so this starts Micro itself with both broken
 * WARs and reads its log.
 */
class DeploymentFailureIT {
  private static final int PORT = 28950;
  private static final Duration BOOT_TIMEOUT = Duration.ofMinutes(4);

  @Test
  void unusableHandlersFailTheDeploymentNamingTheHandlerAndTheProblem() throws Exception {
    Path dir = Path.of("target", "deployment-failure-it");
    Files.createDirectories(dir);
    File war = broken(dir, "broken", BadPolicy.class.getPackage());
    File duplicate = broken(dir, "duplicate", TwoHandlers.class.getPackage());
    Path log = dir.resolve("micro.log");
    Process micro =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-jar",
                    ItConfig.required("payara.microJar"),
                    "--nocluster",
                    "--port",
                    String.valueOf(PORT),
                    "--deploy",
                    war.getAbsolutePath(),
                    "--deploy",
                    duplicate.getAbsolutePath()))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      String output = awaitBoot(micro, log);

      assertThat(output)
          .contains(
              "Taskgate handler "
                  + BadPolicy.ReportHandler.class.getName()
                  + ": @RateLimit: Invalid rate-limit policy: permits must be at least 1, was 0");
      String twoHandlers =
          output
              .lines()
              .filter(line -> line.contains("two handlers for task type "))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no two-handlers error in " + log));
      assertThat(twoHandlers)
          .contains(TwoHandlers.Invoice.class.getName())
          .contains(TwoHandlers.FirstHandler.class.getName())
          .contains(TwoHandlers.SecondHandler.class.getName());
      for (String app : List.of("broken", "duplicate")) {
        HttpResponse<String> info =
            Http.get(URI.create("http://localhost:" + PORT + "/" + app + "/api/info"));
        assertThat(info.statusCode()).as(app + " must not answer").isEqualTo(404);
      }
    } finally {
      micro.destroy();
      if (!micro.waitFor(30, TimeUnit.SECONDS)) {
        micro.destroyForcibly();
      }
    }
  }

  private static File broken(Path dir, String name, Package handlers) {
    File war = dir.resolve(name + ".war").toFile();
    ShrinkWrap.create(ZipImporter.class, name + ".war")
        .importFrom(new File(ItConfig.required("taskgate.war")))
        .as(WebArchive.class)
        .addPackage(handlers)
        .as(ZipExporter.class)
        .exportTo(war, true);
    return war;
  }

  /** Waits until Micro reports itself ready (with or without the application); its log so far. */
  private static String awaitBoot(Process micro, Path log)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + BOOT_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      String output = Files.readString(log, StandardCharsets.UTF_8);
      if (output.contains(" ready in ")) {
        return output;
      }
      if (!micro.isAlive()) {
        return output; // stopped on the failure: the log says why
      }
      Thread.sleep(500);
    }
    throw new AssertionError("Payara Micro did not finish booting in " + BOOT_TIMEOUT + ": " + log);
  }
}
