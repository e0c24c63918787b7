package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.engine.TaskgateInfo;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import java.io.File;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.time.InstantSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.jboss.shrinkwrap.resolver.api.maven.Maven;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Taskgate on Payara Micro, deployed as users run it: the WAR that web-module builds, plus what the
 * in-container tests need. Arquillian boots one Micro per IT class (~20 s), so add test methods
 * here rather than new IT classes. Methods run inside the server unless marked {@link RunAsClient};
 * client-side methods reach the app through {@link #baseUrl}.
 */
@ExtendWith(ArquillianExtension.class)
class EngineIT {

  @ArquillianResource URL baseUrl;

  @Inject TaskgateInfo taskgateInfo;

  @Deployment
  static WebArchive taskgateWar() {
    File war = new File(ItConfig.required("taskgate.war"));
    if (!war.isFile()) {
      throw new IllegalStateException(war + " is missing: build web-module first (mvn -am)");
    }
    return ShrinkWrap.create(ZipImporter.class, "taskgate.war")
        .importFrom(war)
        .as(WebArchive.class)
        .addClasses(Http.class, ItConfig.class)
        .addAsLibraries(
            Maven.resolver()
                .loadPomFromFile("pom.xml")
                .resolve("org.assertj:assertj-core")
                .withoutTransitivity()
                .asFile());
  }

  @Test
  @RunAsClient
  void apiInfoAnswersUpWithTheBuildVersion() throws Exception {
    HttpResponse<String> response = Http.get(api("info"));

    assertThat(response.statusCode()).isEqualTo(200);
    JsonObject info = Http.json(response);
    assertThat(info.getString("name")).isEqualTo("taskgate");
    assertThat(info.getString("status")).isEqualTo("UP");
    assertThat(info.getString("version")).isEqualTo(ItConfig.required("taskgate.version"));
  }

  @Test
  void taskgateInfoFromTheEjbModuleIsInjectedAndHasStarted() {
    assertThat(taskgateInfo.startedAt())
        .isNotNull()
        .isBeforeOrEqualTo(InstantSource.system().instant());
  }

  private URI api(String path) throws Exception {
    return baseUrl.toURI().resolve("api/" + path);
  }
}
