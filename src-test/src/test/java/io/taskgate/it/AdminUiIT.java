package io.taskgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskgate.it.engine.TestConfigSource;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The admin pages in a real headless Chromium (Debian's chromium, driven by Selenium) against the
 * WAR on Payara Micro: login and logout, who may open the pages, throttled tasks on the pages, the
 * cancel action, and user data rendered as text. Every step saves a screenshot under {@code
 * src-test/target/screenshots}. The tests run on the client side only; tasks are dispatched through
 * the REST API.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class AdminUiIT {
  private static final String ADMIN = "admin";
  private static final String ADMIN_PASSWORD = "taskgate";

  @ArquillianResource URL baseUrl;

  private Browser browser;

  @Deployment(testable = false)
  static WebArchive taskgateWar() {
    return EngineIT.taskgateWar();
  }

  @BeforeEach
  void startBrowser() throws Exception {
    browser = Browser.start();
  }

  @AfterEach
  void closeBrowser() throws Exception {
    if (browser != null) {
      browser.close();
    }
  }

  @Test
  void anonymousAccessToAPageRedirectsToTheLoginPageAndBackAfterLogin() {
    browser.open(page("admin/tasks.xhtml"));
    browser.await("redirect to the login page", ExpectedConditions.urlContains("/login.xhtml"));
    assertThat(browser.find(By.id("login:username")).isDisplayed()).isTrue();
    browser.screenshot("01-anonymous-redirected-to-login");

    logIn(ADMIN, "wrong");
    browser.await(
        "an error for a wrong password",
        ExpectedConditions.textToBePresentInElementLocated(
            By.id("messages"), "Wrong user name or password"));
    browser.screenshot("02-wrong-password");

    logIn(ADMIN, ADMIN_PASSWORD);
    browser.await("back on the tasks page", ExpectedConditions.urlContains("/admin/tasks.xhtml"));
    browser.screenshot("03-logged-in-back-on-tasks");

    browser.find(By.id("logout:out")).click();
    browser.await("logged out", ExpectedConditions.urlContains("/login.xhtml"));
    browser.open(page("admin/overview.xhtml"));
    browser.await(
        "the login page again after logout", ExpectedConditions.urlContains("/login.xhtml"));
  }

  @Test
  void aViewerCannotOpenTheAdminPages() throws Exception {
    browser.open(page("login.xhtml"));
    logIn(TestConfigSource.VIEWER, TestConfigSource.VIEWER_PASSWORD);
    browser.await("the forbidden page", ExpectedConditions.titleContains("Forbidden"));
    for (String admin :
        new String[] {"admin/overview.xhtml", "admin/tasks.xhtml", "admin/rate-limits.xhtml"}) {
      browser.open(page(admin));
      assertThat(browser.driver().getTitle()).as(admin).contains("Forbidden");
      assertThat(browser.pageText()).as(admin).doesNotContain("Log out");
    }
    browser.screenshot("04-viewer-forbidden");
  }

  @Test
  void theApiStillAnswersBasicWithoutARedirect() throws Exception {
    HttpResponse<String> anonymous = Http.send("GET", api("tasks"), null, null, null);
    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(anonymous.headers().firstValue("WWW-Authenticate"))
        .hasValue("Basic realm=\"taskgate\"");
    assertThat(Http.send("GET", api("tasks"), null, ADMIN, ADMIN_PASSWORD).statusCode())
        .isEqualTo(200);
  }

  private void logIn(String user, String password) {
    browser.find(By.id("login:username")).clear();
    browser.find(By.id("login:username")).sendKeys(user);
    browser.find(By.id("login:password")).sendKeys(password);
    browser.find(By.id("login:submit")).click();
  }

  private String page(String path) {
    return baseUrl.toString() + path;
  }

  private URI api(String path) {
    return URI.create(baseUrl.toString()).resolve("api/" + path);
  }
}
