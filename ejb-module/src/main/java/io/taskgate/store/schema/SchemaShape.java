package io.taskgate.store.schema;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The shape of Taskgate's tables in one schema, read through the JDBC metadata: per table (lower
 * case), its columns in order (type, size, nullability, default), its primary key and its other
 * indexes (columns, order, direction, uniqueness), one line each: the columns in their order, then
 * the keys and indexes sorted. Two databases of one kind with equal shapes hold the same schema.
 * {@link #text()} is the form kept per version in {@code
 * db/taskgate-shape/<database>/V<version>.txt}.
 *
 * @param tables each table to its lines, sorted
 */
public record SchemaShape(Map<String, List<String>> tables) {
  /** The prefix of every Taskgate table. */
  static final String PREFIX = "taskgate_";

  public SchemaShape {
    tables = java.util.Collections.unmodifiableMap(new TreeMap<>(tables));
  }

  /** The shape of the Taskgate tables (besides the history) in {@code schema}. */
  public static SchemaShape read(Connection connection, String schema) throws SQLException {
    DatabaseMetaData meta = connection.getMetaData();
    Map<String, String> names = new TreeMap<>();
    try (ResultSet t = meta.getTables(null, schema, "%", new String[] {"TABLE"})) {
      while (t.next()) {
        String name = t.getString("TABLE_NAME");
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.startsWith(PREFIX) && !lower.equals(SchemaMigrator.HISTORY)) {
          names.put(lower, name);
        }
      }
    }
    Map<String, List<String>> tables = new TreeMap<>();
    for (Map.Entry<String, String> table : names.entrySet()) {
      List<String> lines = new ArrayList<>();
      columns(meta, schema, table.getValue(), lines);
      lines.sort(Comparator.comparingInt(line -> Integer.parseInt(line.split(" ")[1])));
      List<String> keys = new ArrayList<>();
      try (ResultSet k = meta.getPrimaryKeys(null, schema, table.getValue())) {
        while (k.next()) {
          keys.add("primary key " + k.getInt("KEY_SEQ") + " " + lower(k.getString("COLUMN_NAME")));
        }
      }
      indexes(meta, schema, table.getValue(), keys);
      keys.sort(null);
      lines.addAll(keys);
      tables.put(table.getKey(), lines);
    }
    return new SchemaShape(tables);
  }

  private static void columns(DatabaseMetaData meta, String schema, String table, List<String> out)
      throws SQLException {
    try (ResultSet c = meta.getColumns(null, schema, table, "%")) {
      while (c.next()) {
        out.add(
            "column "
                + c.getInt("ORDINAL_POSITION")
                + " "
                + lower(c.getString("COLUMN_NAME"))
                + " "
                + c.getString("TYPE_NAME")
                + "("
                + c.getInt("COLUMN_SIZE")
                + ","
                + c.getInt("DECIMAL_DIGITS")
                + ") nullable "
                + c.getString("IS_NULLABLE")
                + " default "
                + c.getString("COLUMN_DEF"));
      }
    }
  }

  private static void indexes(DatabaseMetaData meta, String schema, String table, List<String> out)
      throws SQLException {
    try (ResultSet i = meta.getIndexInfo(null, schema, table, false, false)) {
      while (i.next()) {
        String index = i.getString("INDEX_NAME");
        if (index == null) {
          continue;
        }
        String name = lower(index);
        if (name.startsWith("primary_key") || name.endsWith("_pkey")) {
          continue; // the primary key's own index, named by the database
        }
        out.add(
            "index "
                + name
                + " unique "
                + !i.getBoolean("NON_UNIQUE")
                + " "
                + i.getInt("ORDINAL_POSITION")
                + " "
                + lower(String.valueOf(i.getString("COLUMN_NAME")))
                + " "
                + i.getString("ASC_OR_DESC"));
      }
    }
  }

  /** Whether {@code schema} holds a table named {@code table} (any case). */
  static boolean hasTable(Connection connection, String schema, String table) throws SQLException {
    try (ResultSet t =
        connection.getMetaData().getTables(null, schema, "%", new String[] {"TABLE"})) {
      while (t.next()) {
        if (t.getString("TABLE_NAME").equalsIgnoreCase(table)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The shape kept at {@code resource} (written by {@link #text()}), or null if there is none. */
  public static SchemaShape load(ClassLoader loader, String resource) throws IOException {
    try (InputStream in = loader.getResourceAsStream(resource)) {
      if (in == null) {
        return null;
      }
      Map<String, List<String>> tables = new LinkedHashMap<>();
      List<String> current = null;
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        if (line.startsWith("  ")) {
          if (current == null) {
            throw new IOException(resource + ": a line before the first table: " + line);
          }
          current.add(line.strip());
        } else {
          current = new ArrayList<>();
          tables.put(line.strip(), current);
        }
      }
      return new SchemaShape(tables);
    }
  }

  /** Each table's name on a line, then its lines indented by two spaces. */
  public String text() {
    StringBuilder text = new StringBuilder();
    tables.forEach(
        (table, lines) -> {
          text.append(table).append('\n');
          lines.forEach(line -> text.append("  ").append(line).append('\n'));
        });
    return text.toString();
  }

  /**
   * What a database of this shape lacks or holds otherwise than {@code expected}, in words naming
   * the table and the column or index: empty when it holds everything {@code expected} describes
   * the same way. Tables, columns and indexes beyond {@code expected} are not differences.
   */
  public List<String> differencesFrom(SchemaShape expected) {
    List<String> differences = new ArrayList<>();
    expected.tables.forEach(
        (table, lines) -> {
          List<String> have = tables.get(table);
          if (have == null) {
            differences.add("table " + table + " is missing");
            return;
          }
          Map<String, String> columns = byName(have, "column ");
          byName(lines, "column ")
              .forEach(
                  (column, shape) -> {
                    String found = columns.get(column);
                    if (found == null) {
                      differences.add(
                          "table " + table + " lacks column " + column + " (" + shape + ")");
                    } else if (!found.equals(shape)) {
                      differences.add(
                          "table "
                              + table
                              + ", column "
                              + column
                              + ": "
                              + found
                              + " where "
                              + shape
                              + " is needed");
                    }
                  });
          for (String line : lines) {
            if (!line.startsWith("column ") && !have.contains(line)) {
              differences.add("table " + table + " lacks " + line);
            }
          }
        });
    return differences;
  }

  /** The column lines by column name, to their type, nullability and default (not position). */
  private static Map<String, String> byName(List<String> lines, String prefix) {
    Map<String, String> columns = new LinkedHashMap<>();
    for (String line : lines) {
      if (line.startsWith(prefix)) {
        String[] parts = line.split(" ", 4); // column <position> <name> <rest>
        columns.put(parts[2], parts[3]);
      }
    }
    return columns;
  }

  private static String lower(String name) {
    return name.toLowerCase(Locale.ROOT);
  }
}
