package io.idem.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Real PostgreSQL for tests: one embedded server per test JVM, a fresh migrated database per call.
 * Shared by every module's tests (published as this module's test-jar).
 */
public final class TestDatabases {
    private static final AtomicInteger counter = new AtomicInteger();
    private static EmbeddedDatabase server;

    private TestDatabases() {}

    private static synchronized EmbeddedDatabase server() {
        if (server == null) {
            server = EmbeddedDatabase.startTemporary();
            Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        }
        return server;
    }

    /** A new, empty, migrated database; close it when done. */
    public static Database fresh() {
        return fresh(16);
    }

    public static Database fresh(int poolSize) {
        return Database.open(freshUrl(), poolSize);
    }

    /** The first column of every row {@code query} answers, as text. */
    public static java.util.List<String> column(Database db, String query) {
        return db.withConnection(c -> {
            java.util.List<String> out = new java.util.ArrayList<>();
            try (var rs = c.createStatement().executeQuery(query)) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out;
        });
    }

    /** The JDBC URL of a new, empty database (not yet migrated). */
    public static String freshUrl() {
        String name = "idem_test_" + ProcessHandle.current().pid() + "_" + counter.incrementAndGet();
        EmbeddedDatabase pg = server();
        try (Connection c = DriverManager.getConnection(pg.jdbcUrl("postgres"));
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create test database " + name, e);
        }
        return pg.jdbcUrl(name);
    }
}
