package io.idem.server;

import io.idem.postgres.Database;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

/**
 * Every stored value that could hold text, in every table of a node's database: each text,
 * varchar, json, jsonb and array column as PostgreSQL renders it, and each bytea column byte for
 * byte (where hashes of keys live), found through {@code information_schema}, so a table added
 * later is searched too.
 */
final class DatabaseText {
    private static final String COLUMNS = """
            SELECT table_name, column_name, data_type FROM information_schema.columns
             WHERE table_schema = 'public'
               AND data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'bytea')
             ORDER BY table_name, column_name
            """;

    private DatabaseText() {}

    /** One stored value and where it is. */
    record Cell(String table, String column, String text) {}

    static List<Cell> everyValue(Database database) {
        return database.withConnection(c -> {
            List<String[]> columns = new ArrayList<>();
            try (var ps = c.prepareStatement(COLUMNS);
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3)});
                }
            }
            List<Cell> cells = new ArrayList<>();
            for (String[] column : columns) {
                boolean bytes = column[2].equals("bytea");
                String select = "SELECT " + quoted(column[1]) + (bytes ? "" : "::text") + " FROM " + quoted(column[0])
                        + " WHERE " + quoted(column[1]) + " IS NOT NULL";
                try (var ps = c.prepareStatement(select);
                        ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        // Latin-1 maps byte for byte, so an ASCII secret stored raw in a bytea shows.
                        String text = bytes ? new String(rs.getBytes(1), StandardCharsets.ISO_8859_1) : rs.getString(1);
                        cells.add(new Cell(column[0], column[1], text));
                    }
                }
            }
            return cells;
        });
    }

    private static String quoted(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
