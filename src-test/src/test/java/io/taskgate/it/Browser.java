package io.taskgate.it;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedCondition;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real headless Chromium for browser tests: Debian's {@code chromium} driven through its {@code
 * chromium-driver} by Selenium, never a downloaded browser. System properties {@code
 * taskgate.chromium} and {@code taskgate.chromedriver} override the binaries' paths. A missing
 * browser fails the test with what to install; it never skips. Screenshots go to {@code
 * taskgate.screenshots} (Failsafe sets it to {@code src-test/target/screenshots}).
 */
final class Browser implements AutoCloseable {
  private static final Duration WAIT = Duration.ofSeconds(20);

  private final ChromeDriver driver;
  private final Path profile;
  private final Path screenshots;

  private Browser(ChromeDriver driver, Path profile, Path screenshots) {
    this.driver = driver;
    this.profile = profile;
    this.screenshots = screenshots;
  }

  /** Starts a fresh headless Chromium with an empty profile (no cookies, no session). */
  static Browser start() throws IOException {
    File chromium = binary("taskgate.chromium", "/usr/bin/chromium", "chromium");
    File chromedriver = binary("taskgate.chromedriver", "/usr/bin/chromedriver", "chromium-driver");
    Path profile = Files.createTempDirectory("taskgate-chromium");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium);
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
        "--user-data-dir=" + profile);
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(chromedriver).build();
    Path screenshots = Path.of(ItConfig.required("taskgate.screenshots"));
    Files.createDirectories(screenshots);
    return new Browser(new ChromeDriver(service, options), profile, screenshots);
  }

  private static File binary(String property, String fallback, String debianPackage) {
    File file = new File(System.getProperty(property, fallback));
    if (!file.canExecute()) {
      throw new IllegalStateException(
          file
              + " is missing: the browser tests need Debian's chromium and chromium-driver"
              + " (sudo apt-get install -y chromium chromium-driver; ./test installs them), or"
              + " -D"
              + property
              + "=<path>. Package: "
              + debianPackage);
    }
    return file;
  }

  ChromeDriver driver() {
    return driver;
  }

  /** Opens {@code url} and returns once the page has loaded. */
  void open(String url) {
    driver.get(url);
  }

  String currentUrl() {
    return driver.getCurrentUrl();
  }

  /** The visible text of the whole page. */
  String pageText() {
    return driver.findElement(By.tagName("body")).getText();
  }

  WebElement find(By by) {
    return driver.findElement(by);
  }

  /** Waits (up to 20 s) for {@code condition}; its message names what did not happen. */
  <T> T await(String what, ExpectedCondition<T> condition) {
    return new WebDriverWait(driver, WAIT)
        .withMessage(() -> what + "; page " + driver.getCurrentUrl() + ":\n" + pageText())
        .until(condition);
  }

  /**
   * Waits until {@code element} has left the page (the page was replaced). Chromium may answer a
   * check made while the old page is being torn down with "node does not belong to the document"
   * instead of a stale element: that answer means gone too.
   */
  void awaitGone(String what, WebElement element) {
    await(
        what,
        d -> {
          try {
            element.isEnabled();
            return false;
          } catch (org.openqa.selenium.StaleElementReferenceException gone) {
            return true;
          } catch (org.openqa.selenium.WebDriverException e) {
            if (String.valueOf(e.getMessage()).contains("does not belong to the document")) {
              return true;
            }
            throw e;
          }
        });
  }

  /**
   * The accessibility problems axe-core finds in the page against WCAG 2.1 A and AA, of impact
   * serious or critical: each as {@code rule: help (the elements)}.
   */
  @SuppressWarnings("unchecked")
  List<String> seriousAccessibilityProblems() {
    String axe;
    try (InputStream in = Browser.class.getResourceAsStream("/axe.min.js")) {
      if (in == null) {
        throw new IllegalStateException("axe.min.js is not on the test class path");
      }
      axe = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    driver.executeScript(axe);
    return (List<String>)
        driver.executeAsyncScript(
            "var done = arguments[arguments.length - 1];"
                + " axe.run(document, {runOnly: {type: 'tag',"
                + " values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"
                + ".then(function (r) { done(r.violations"
                + ".filter(function (v) { return v.impact === 'serious' || v.impact === 'critical'; })"
                + ".map(function (v) { return v.id + ': ' + v.help + ' ('"
                + " + v.nodes.map(function (n) { return n.target.join(' '); }).join(', ') + ')'; }));"
                + " }, function (e) { done(['axe failed: ' + e]); });");
  }

  /** The texts of the SVG {@code id} that do not lie wholly inside its view box, as drawn. */
  @SuppressWarnings("unchecked")
  List<String> labelsOutside(String id) {
    return (List<String>)
        driver.executeScript(
            "var svg = document.getElementById(arguments[0]); var box = svg.viewBox.baseVal;"
                + " var out = [];"
                + " svg.querySelectorAll('text').forEach(function (t) { var b = t.getBBox();"
                + " if (b.x < 0 || b.y < 0 || b.x + b.width > box.width"
                + " || b.y + b.height > box.height) { out.push(t.textContent); } });"
                + " return out;",
            id);
  }

  /** Whether the page is wider than the window: a reader would scroll sideways. */
  boolean scrollsSideways() {
    return (Boolean)
        driver.executeScript(
            "return document.documentElement.scrollWidth > document.documentElement.clientWidth;");
  }

  /** Sets the window's size in CSS pixels. */
  void resize(int width, int height) {
    driver.manage().window().setSize(new org.openqa.selenium.Dimension(width, height));
  }

  /** Whether a JavaScript alert, confirm or prompt is open. */
  boolean alertOpen() {
    try {
      driver.switchTo().alert();
      return true;
    } catch (NoAlertPresentException e) {
      return false;
    }
  }

  /** Saves a PNG of the viewport as {@code <name>.png} and returns its path. */
  Path screenshot(String name) {
    Path target = screenshots.resolve(name + ".png");
    try {
      Files.copy(
          driver.getScreenshotAs(OutputType.FILE).toPath(),
          target,
          StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return target;
  }

  @Override
  public void close() throws IOException {
    try {
      driver.quit();
    } finally {
      try (Stream<Path> files = Files.walk(profile)) {
        files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
      }
    }
  }
}
