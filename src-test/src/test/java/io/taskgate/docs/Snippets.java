package io.taskgate.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The Java snippets of a Markdown file, compiled against the test class path (Taskgate's API, the
 * Jakarta EE and MicroProfile APIs), as doctests are.
 *
 * <p>A snippet is a <code>```java</code> block. It compiles as the body of a class: its leading
 * type, field and method declarations as members, the statements after them (from the first chunk
 * that does not start with an annotation, a modifier or {@code class}, {@code record}, {@code
 * interface} or {@code enum}) as the body of a method that may throw. Its own {@code import} lines
 * are imports; the API's packages and the common Jakarta and {@code java.time}/{@code java.util}
 * ones are imported already. An HTML comment right above the block, {@code <!-- java: ... -->},
 * adds declarations the reader does not need to see (the snippet's task records, a variable it
 * uses): they are compiled with it, unseen. An elided body, {@code { … }}, stands for code the
 * snippet leaves out: after a method's header it becomes {@code { throw new
 * UnsupportedOperationException(); }}, after a type's header the type is made abstract with an
 * empty body.
 */
final class Snippets {

  static final List<String> IMPORTS =
      List.of(
          "io.taskgate.api.*",
          "jakarta.enterprise.context.*",
          "jakarta.enterprise.event.*",
          "jakarta.inject.*",
          "jakarta.validation.constraints.*",
          "jakarta.ws.rs.*",
          "jakarta.ws.rs.core.MediaType",
          "java.time.*",
          "java.util.*");

  private static final Pattern FENCE_OPEN = Pattern.compile("^```java\\s*$");
  private static final Pattern HIDDEN = Pattern.compile("<!--\\s*java:(.*?)-->", Pattern.DOTALL);
  private static final Pattern MEMBER_START =
      Pattern.compile(
          "^(@|public\\b|protected\\b|private\\b|static\\b|final\\b|abstract\\b|default\\b"
              + "|class\\b|record\\b|interface\\b|enum\\b|sealed\\b)");

  /** One snippet: where it starts in its file (the fence's line), its code, its hidden part. */
  record Snippet(Path file, int line, String code, String hidden) {
    String where() {
      return file.getFileName() + ":" + line;
    }
  }

  private Snippets() {}

  /** The snippets of {@code markdown}, in order. */
  static List<Snippet> of(Path markdown) {
    List<String> lines;
    try {
      lines = Files.readAllLines(markdown);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Snippet> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (!FENCE_OPEN.matcher(lines.get(i)).matches()) {
        continue;
      }
      int start = i;
      StringBuilder code = new StringBuilder();
      for (i++; i < lines.size() && !lines.get(i).startsWith("```"); i++) {
        code.append(lines.get(i)).append('\n');
      }
      out.add(new Snippet(markdown, start + 1, code.toString(), hiddenAbove(lines, start)));
    }
    return out;
  }

  /** The {@code <!-- java: ... -->} comment ending on the line right above {@code fence}. */
  private static String hiddenAbove(List<String> lines, int fence) {
    if (fence == 0 || !lines.get(fence - 1).strip().endsWith("-->")) {
      return "";
    }
    int from = fence - 1;
    while (from > 0 && !lines.get(from).contains("<!--")) {
      from--;
    }
    Matcher m = HIDDEN.matcher(String.join("\n", lines.subList(from, fence)));
    return m.find() ? m.group(1) : "";
  }

  /**
   * Compiles {@code snippet} in a package of its own; returns the errors, each with the snippet's
   * place in its file, or an empty list.
   */
  static List<String> compile(Snippet snippet, int index, String classPath, Path out) {
    Unit unit = Unit.of(snippet, "snippet" + index);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, null)) {
      Files.createDirectories(out);
      List<String> options =
          List.of("-proc:none", "-classpath", classPath, "-d", out.toString(), "-Xlint:none");
      JavaFileObject source =
          new SimpleJavaFileObject(
              URI.create("string:///" + unit.pkg() + "/Snippet.java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
              return unit.source();
            }
          };
      boolean ok = javac.getTask(null, files, diagnostics, options, null, List.of(source)).call();
      List<String> errors = new ArrayList<>();
      for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
        if (d.getKind() == Diagnostic.Kind.ERROR) {
          errors.add(
              snippet.where()
                  + " "
                  + unit.place((int) d.getLineNumber())
                  + ": "
                  + d.getMessage(Locale.ROOT));
        }
      }
      if (!ok && errors.isEmpty()) {
        errors.add(snippet.where() + ": does not compile");
      }
      return errors;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The compilation unit made of a snippet, with a map from its lines back to the snippet's. */
  record Unit(String pkg, String source, int membersFrom, int statementsFrom, int snippetLines) {

    static Unit of(Snippet snippet, String pkg) {
      List<String> imports = new ArrayList<>();
      StringBuilder body = new StringBuilder();
      for (String line : snippet.code().split("\n", -1)) {
        if (line.startsWith("import ")) {
          imports.add(line);
          body.append('\n'); // keeps the snippet's line numbers
        } else {
          body.append(line).append('\n');
        }
      }
      String code = elide(body.toString());
      int split = statementsStart(code);
      String members = code.substring(0, split);
      String statements = code.substring(split);
      StringBuilder src = new StringBuilder("package ").append(pkg).append(";\n");
      IMPORTS.forEach(i -> src.append("import ").append(i).append(";\n"));
      imports.forEach(i -> src.append(i).append('\n'));
      StringBuilder hidden = new StringBuilder();
      for (String line : snippet.hidden().strip().split("\n")) {
        (line.strip().startsWith("import ") ? src : hidden).append(line.strip()).append('\n');
      }
      src.append("@SuppressWarnings(\"all\") abstract class Snippet {\n");
      src.append(hidden).append('\n');
      int membersFrom = lineCount(src) + 1;
      src.append(members);
      if (!members.endsWith("\n")) {
        src.append('\n');
      }
      src.append("void snippet() throws Exception {\n");
      int statementsFrom = lineCount(src) + 1;
      src.append(statements).append("\n}\n}\n");
      int membersLines = (int) members.chars().filter(c -> c == '\n').count();
      return new Unit(pkg, src.toString(), membersFrom, statementsFrom, membersLines);
    }

    /** "line N of the snippet" for a line of the unit, or where else it is. */
    String place(int unitLine) {
      if (unitLine >= statementsFrom) {
        return "(snippet line " + (unitLine - statementsFrom + 1 + snippetLines) + ")";
      }
      if (unitLine >= membersFrom && unitLine < membersFrom + snippetLines) {
        return "(snippet line " + (unitLine - membersFrom + 1) + ")";
      }
      return "(hidden declarations, unit line " + unitLine + ")";
    }

    private static int lineCount(CharSequence s) {
      return (int) s.chars().filter(c -> c == '\n').count();
    }
  }

  /** {@code { … }}: an elided method body throws; an elided type body makes the type abstract. */
  static String elide(String code) {
    Matcher m = Pattern.compile("\\{\\s*…\\s*}").matcher(code);
    StringBuilder out = new StringBuilder();
    int last = 0;
    while (m.find()) {
      String before = code.substring(last, m.start());
      int lineStart = before.lastIndexOf('\n') + 1;
      String header = before.substring(lineStart);
      if (Pattern.compile("\\b(class|record|interface|enum)\\s").matcher(header).find()) {
        header = header.replaceFirst("\\bclass\\s", "abstract class ");
        out.append(before, 0, lineStart).append(header).append("{ }");
      } else {
        out.append(before).append("{ throw new UnsupportedOperationException(); }");
      }
      last = m.end();
    }
    return out.append(code.substring(last)).toString();
  }

  /**
   * Where the statements begin: the first top-level chunk (ended by {@code ;} or by a closing brace
   * back at depth 0) that does not start like a declaration.
   */
  static int statementsStart(String code) {
    int depth = 0;
    int chunkStart = 0;
    for (int i = 0; i < code.length(); i++) {
      char c = code.charAt(i);
      if (c == '/' && i + 1 < code.length() && code.charAt(i + 1) == '/') {
        int end = code.indexOf('\n', i);
        i = end < 0 ? code.length() : end;
        continue;
      }
      if (c == '/' && i + 1 < code.length() && code.charAt(i + 1) == '*') {
        int end = code.indexOf("*/", i + 2);
        i = end < 0 ? code.length() : end + 1;
        continue;
      }
      if (c == '"' || c == '\'') {
        for (i++; i < code.length() && code.charAt(i) != c; i++) {
          if (code.charAt(i) == '\\') {
            i++;
          }
        }
        continue;
      }
      if (depth == 0 && chunkStart >= 0 && !Character.isWhitespace(c)) {
        if (!MEMBER_START.matcher(code.substring(i)).lookingAt()) {
          return lineStart(code, i);
        }
        chunkStart = -1;
      }
      if (c == '(' || c == '{' || c == '[') {
        depth++;
      } else if (c == ')' || c == '}' || c == ']') {
        depth--;
        if (depth == 0 && c == '}') {
          chunkStart = i + 1;
        }
      } else if (c == ';' && depth == 0) {
        chunkStart = i + 1;
      }
    }
    return code.length();
  }

  private static int lineStart(String code, int i) {
    return code.lastIndexOf('\n', i) + 1;
  }
}
