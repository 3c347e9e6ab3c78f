package io.idem.server.hostile;

import io.idem.postgres.Database;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every table's row count and a checksum over all its rows, so a test can prove a request changed
 * nothing at all (not only the tables it thought of).
 */
record TableSnapshot(Map<String, String> tables) {

    static TableSnapshot of(Database database) {
        return database.withConnection(c -> {
            List<String> names = new ArrayList<>();
            try (ResultSet rs = c.createStatement()
                    .executeQuery("SELECT table_name FROM information_schema.tables"
                            + " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
                            + " AND table_name <> 'flyway_schema_history' ORDER BY table_name")) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
            Map<String, String> tables = new TreeMap<>();
            for (String name : names) {
                try (ResultSet rs = c.createStatement()
                        .executeQuery(
                                "SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '-')"
                                        + " FROM \"" + name + "\" t")) {
                    rs.next();
                    tables.put(name, rs.getString(1));
                }
            }
            return new TableSnapshot(tables);
        });
    }
}
