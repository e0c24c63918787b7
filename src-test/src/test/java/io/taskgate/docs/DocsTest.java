package io.taskgate.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README and the guides keep their promises about themselves: the README is short, every guide
 * says first what it answers, every link leads somewhere, every Java snippet compiles against the
 * API (see {@link Snippets}), and every setting they name is one Taskgate has.
 */
class DocsTest {

  /** The project's root: this module's parent. */
  static final Path ROOT = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();

  /** Pages that are not guides (results, design notes): no opening question needed. */
  static final Set<String> NOT_GUIDES =
      Set.of("architecture.md", "benchmarks.md", "benchmarks-notes.md");

  static final Pattern LINK = Pattern.compile("\\[[^\\]]*]\\(([^)\\s]+)\\)");

  /** A setting's name; not a call on a variable named taskgate ({@code taskgate.advance(…)}). */
  static final Pattern SETTING =
      Pattern.compile(
          "(?<![\\w./-])taskgate\\.[A-Za-z0-9_.<>*…-]*[A-Za-z0-9_>*]"
              + "(?![A-Za-z0-9_<>*…(-]|\\.[A-Za-z0-9_])");

  static final Pattern JAVA_LITERAL = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");

  @Test
  void theReadmeIsShortAndStartsWithTheCommands() throws IOException {
    List<String> readme = Files.readAllLines(ROOT.resolve("README.md"));
    assertThat(readme).hasSizeLessThanOrEqualTo(400);
    String firstScreen = String.join("\n", readme.subList(0, Math.min(40, readme.size())));
    assertThat(firstScreen).contains("`./mvnw -Prun package`", "`./test`");
  }

  @Test
  void everyGuideSaysFirstWhatItAnswers() {
    List<String> without = new ArrayList<>();
    for (Path guide : guides()) {
      if (NOT_GUIDES.contains(guide.getFileName().toString())) {
        continue;
      }
      List<String> lines = lines(guide);
      boolean ok =
          lines.size() > 3
              && lines.get(0).startsWith("# ")
              && lines.get(1).isBlank()
              && lines.get(2).matches("\\*[^*].*[^*]\\*");
      if (!ok) {
        without.add(guide.getFileName().toString());
      }
    }
    assertThat(without).as("guides whose third line is not what they answer, in italics").isEmpty();
  }

  @Test
  void everyLinkLeadsToAFileAndAHeadingThatExist() {
    List<String> broken = new ArrayList<>();
    int checked = 0;
    for (Path page : pages()) {
      Matcher m = LINK.matcher(withoutCode(String.join("\n", lines(page))));
      while (m.find()) {
        String url = m.group(1);
        if (url.matches("^[a-z][a-z0-9+.-]*:.*")) {
          continue; // http:, https:, mailto:
        }
        checked++;
        int hash = url.indexOf('#');
        String path = hash < 0 ? url : url.substring(0, hash);
        Path target = path.isEmpty() ? page : page.getParent().resolve(path).normalize();
        if (!Files.exists(target)) {
          broken.add(where(page) + ": " + url + " (no such file)");
        } else if (hash >= 0 && !anchors(target).contains(url.substring(hash + 1))) {
          broken.add(where(page) + ": " + url + " (no such heading)");
        }
      }
    }
    assertThat(checked).as("links checked").isGreaterThan(50);
    assertThat(broken).isEmpty();
  }

  @Test
  void everyJavaSnippetCompiles(@TempDir Path out) {
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> errors = new ArrayList<>();
    int index = 0;
    for (Path page : pages()) {
      for (Snippets.Snippet snippet : Snippets.of(page)) {
        errors.addAll(Snippets.compile(snippet, index, classPath, out.resolve("s" + index)));
        index++;
      }
    }
    assertThat(index).as("snippets").isGreaterThanOrEqualTo(9);
    assertThat(errors).isEmpty();
  }

  @Test
  void everySettingTheDocsNameExists() {
    List<String> texts = sources().stream().map(f -> String.join("\n", lines(f))).toList();
    Set<String> missing = new TreeSet<>();
    int named = 0;
    for (Path page : docs()) { // and the README; the changelog names settings as they were then
      Matcher m = SETTING.matcher(String.join("\n", lines(page)));
      while (m.find()) {
        named++;
        if (!exists(m.group(), texts)) {
          missing.add(m.group() + " (" + where(page) + ")");
        }
      }
    }
    assertThat(named).as("settings named").isGreaterThan(50);
    assertThat(missing).as("settings the docs name that no source has").isEmpty();
  }

  /**
   * A setting exists when a source names it whole (a literal, a POM property, a command file, or
   * the Javadoc of the class that builds it from a prefix). A name with a placeholder ({@code
   * taskgate.queue.<name>.capacity}, {@code taskgate.retention.*}) exists when one Java source has
   * its prefix as a literal and, if it has one, its last part as a literal too.
   */
  static boolean exists(String name, List<String> texts) {
    int open = indexOfAny(name, "<*…");
    if (open < 0) {
      Pattern whole = Pattern.compile("(?<![\\w.-])" + Pattern.quote(name) + "(?![\\w.-])");
      if (texts.stream().anyMatch(text -> whole.matcher(text).find())) {
        return true;
      }
    }
    String prefix = open < 0 ? name : name.substring(0, open);
    String last = name.substring(name.lastIndexOf('.') + 1);
    boolean placeholderLast = last.endsWith(">") || last.equals("*") || last.equals("…");
    for (String text : texts) {
      Matcher literal = JAVA_LITERAL.matcher(text);
      boolean hasPrefix = false;
      boolean hasLast = placeholderLast || text.contains("{@code ." + last + "}");
      while (literal.find()) {
        String l = literal.group(1);
        hasPrefix |=
            open < 0
                ? l.endsWith(".") && prefix.startsWith(l) && !l.equals("taskgate.")
                : l.startsWith(prefix) || (prefix.startsWith(l) && l.endsWith("."));
        hasLast |= l.equals(last) || l.equals("." + last) || l.endsWith("." + last);
      }
      if (hasPrefix && hasLast && prefix.startsWith("taskgate.")) {
        return true;
      }
    }
    return false;
  }

  private static int indexOfAny(String s, String chars) {
    int min = -1;
    for (char c : chars.toCharArray()) {
      int i = s.indexOf(c);
      if (i >= 0 && (min < 0 || i < min)) {
        min = i;
      }
    }
    return min;
  }

  /** The README, the changelog and every page under docs/. */
  static List<Path> pages() {
    List<Path> pages =
        new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CHANGELOG.md")));
    pages.addAll(guides());
    return pages;
  }

  static List<Path> docs() {
    return Stream.concat(Stream.of(ROOT.resolve("README.md")), guides().stream()).toList();
  }

  /** The pages under docs/. */
  static List<Path> guides() {
    try (Stream<Path> s = Files.list(ROOT.resolve("docs"))) {
      return s.filter(p -> p.toString().endsWith(".md")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Where settings may be defined: the modules' sources, the server configuration, the POMs. */
  static List<Path> sources() {
    List<Path> roots =
        List.of(
            ROOT.resolve("ejb-module/src/main"),
            ROOT.resolve("web-module/src/main"),
            ROOT.resolve("src-test/src/test/java/io/taskgate/it"),
            ROOT.resolve("src-test/src/test/java/io/taskgate/load"),
            ROOT.resolve("server-config"),
            ROOT.resolve("ear"),
            ROOT.resolve("src-test/pom.xml"),
            ROOT.resolve("pom.xml"),
            ROOT.resolve("test"));
    List<Path> files = new ArrayList<>();
    for (Path root : roots) {
      if (!Files.exists(root)) {
        continue;
      }
      try (Stream<Path> s = Files.walk(root)) {
        s.filter(Files::isRegularFile)
            .filter(p -> !p.toString().contains("/target/"))
            .filter(p -> p.toString().matches(".*(\\.java|\\.xml|\\.properties|\\.asadmin|/test)$"))
            .forEach(files::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return files;
  }

  /** The anchors of a Markdown page: its headings as GitHub makes them, and explicit ids. */
  static Set<String> anchors(Path page) {
    Set<String> anchors = new LinkedHashSet<>();
    if (!page.toString().endsWith(".md")) {
      return anchors;
    }
    boolean fence = false;
    for (String line : lines(page)) {
      if (line.startsWith("```")) {
        fence = !fence;
      } else if (!fence && line.matches("^#{1,6} .*")) {
        String slug = slug(line.replaceFirst("^#+ ", ""));
        String unique = slug;
        for (int n = 1; !anchors.add(unique); n++) {
          unique = slug + "-" + n;
        }
      }
      Matcher id = Pattern.compile("<a (?:id|name)=\"([^\"]+)\"").matcher(line);
      while (id.find()) {
        anchors.add(id.group(1));
      }
    }
    return anchors;
  }

  /** GitHub's anchor for a heading: lower case, punctuation dropped, spaces made hyphens. */
  static String slug(String heading) {
    return heading
        .strip()
        .toLowerCase(Locale.ROOT)
        .replaceAll("[^\\p{L}\\p{N}_ -]", "")
        .replace(' ', '-');
  }

  private static String withoutCode(String text) {
    return text.replaceAll("(?s)```.*?```", "");
  }

  private static String where(Path page) {
    return ROOT.relativize(page).toString();
  }

  private static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
