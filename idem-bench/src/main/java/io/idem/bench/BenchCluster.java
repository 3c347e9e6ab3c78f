package io.idem.bench;

import io.idem.postgres.EmbeddedDatabase;
import io.idem.postgres.TestDatabases;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The embedded PostgreSQL 18 the benchmarks run on, in this process's machine and on its cores: fresh
 * and cloned databases, their {@code synchronous_commit}, and the counters the reports divide by jobs. Holds one connection to the {@code postgres} database so its own reads
 * never count against a benchmark database. Not thread-safe.
 */
final class BenchCluster implements AutoCloseable {
    private static final Pattern URL = Pattern.compile("^(jdbc:postgresql://[^/]+/)([^?]+)(\\?.*)?$");
    private static final AtomicInteger databases = new AtomicInteger();

    private final String prefix;
    private final String query;
    private final Connection admin;
    private final boolean synchronousCommit;
    private final EmbeddedDatabase own;
    private final Path ownDirectory;

    /** Transactions of one database and the cluster's next transaction id, read at one moment. */
    record Counters(long commits, long rollbacks, long nextXid) {}

    private BenchCluster(
            String prefix,
            String query,
            Connection admin,
            boolean synchronousCommit,
            EmbeddedDatabase own,
            Path ownDirectory) {
        this.prefix = prefix;
        this.query = query;
        this.admin = admin;
        this.synchronousCommit = synchronousCommit;
        this.own = own;
        this.ownDirectory = ownDirectory;
    }

    /**
     * With {@code fsync}, a PostgreSQL of its own started as Idem's embedded one is ({@link
     * EmbeddedDatabase#start}: {@code fsync=on}) in a temporary directory; without, the tests' shared
     * server ({@link TestDatabases}), which zonky starts with {@code -F} (no fsync at all).
     */
    static BenchCluster start(boolean fsync, boolean synchronousCommit) {
        return start(fsync, synchronousCommit, false);
    }

    /**
     * As {@link #start(boolean, boolean)}; with {@code statements} (and {@code fsync}), the server
     * also loads {@code pg_stat_statements}, tracking statements inside functions and triggers too.
     */
    static BenchCluster start(boolean fsync, boolean synchronousCommit, boolean statements) {
        EmbeddedDatabase own = null;
        Path dir = null;
        String anyUrl;
        if (fsync) {
            try {
                dir = Files.createTempDirectory("idem-bench-pg");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            own = EmbeddedDatabase.start(
                    dir,
                    statements
                            ? Map.of(
                                    "shared_preload_libraries", "pg_stat_statements",
                                    "pg_stat_statements.track", "all")
                            : Map.of());
            anyUrl = own.jdbcUrl("postgres");
        } else {
            anyUrl = TestDatabases.freshUrl();
        }
        Matcher url = parse(anyUrl);
        String prefix = url.group(1);
        String query = url.group(3) == null ? "" : url.group(3);
        try {
            Connection admin = DriverManager.getConnection(prefix + "postgres" + query);
            if (statements) {
                try (Statement st = admin.createStatement()) {
                    st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
                }
            }
            return new BenchCluster(prefix, query, admin, synchronousCommit, own, dir);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reach the embedded PostgreSQL", e);
        }
    }

    private static Matcher parse(String url) {
        Matcher m = URL.matcher(url);
        if (!m.matches()) {
            throw new IllegalStateException("unexpected JDBC URL shape from TestDatabases");
        }
        return m;
    }

    static String databaseName(String url) {
        return parse(url).group(2);
    }

    /** A new, empty database (Idem migrates it when a node opens it). */
    String fresh() {
        String name = "idem_bench_" + ProcessHandle.current().pid() + "_" + databases.incrementAndGet();
        execute("CREATE DATABASE " + name);
        applySettings(name);
        return prefix + name + query;
    }

    /**
     * A file-level copy of {@code templateUrl}'s database, so each drain starts from the same queue
     * without paying for the inserts again. Sessions still on the template are ended first.
     */
    String cloneOf(String templateUrl) {
        String template = databaseName(templateUrl);
        String name = "idem_bench_" + ProcessHandle.current().pid() + "_" + databases.incrementAndGet();
        SQLException last = null;
        for (int tries = 0; tries < 20; tries++) {
            try (Statement st = admin.createStatement()) {
                st.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + template
                        + "' AND pid <> pg_backend_pid()");
                st.execute("CREATE DATABASE " + name + " TEMPLATE " + template);
                applySettings(name);
                return prefix + name + query;
            } catch (SQLException e) {
                last = e; // "source database is being accessed by other users": a pool still closing
                pause(250);
            }
        }
        throw new IllegalStateException("could not copy database " + template, last);
    }

    /** The admin connection (the {@code postgres} database), for cluster-wide views. */
    Connection admin() {
        return admin;
    }

    /** Refreshes the planner's statistics; cached plans of the tables are made again on next use. */
    static void analyze(String url) {
        try (Connection c = DriverManager.getConnection(url);
                Statement st = c.createStatement()) {
            st.execute("ANALYZE");
        } catch (SQLException e) {
            throw new IllegalStateException("ANALYZE failed", e);
        }
    }

    /** The database's cumulative table and index reads. */
    static RelationReads reads(String url) {
        try (Connection c = DriverManager.getConnection(url);
                Statement st = c.createStatement()) {
            return RelationReads.read(st);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read pg_stat_user_tables", e);
        }
    }

    void drop(String url) {
        execute("DROP DATABASE IF EXISTS " + databaseName(url) + " WITH (FORCE)");
    }

    private void applySettings(String database) {
        execute("ALTER DATABASE " + database + " SET synchronous_commit = " + (synchronousCommit ? "on" : "off"));
    }

    /**
     * The database's transaction counters once they have settled: backends report them lazily (at
     * most once a second, and on exit), so this waits 1.5 s, then until two reads 600 ms apart agree.
     */
    Counters settledCounters(String url) {
        pause(1_500); // an idle backend reports within about a second
        Counters previous = counters(url);
        for (int i = 0; i < 15; i++) {
            pause(600);
            Counters now = counters(url);
            if (now.commits() == previous.commits() && now.rollbacks() == previous.rollbacks()) {
                return now;
            }
            previous = now;
        }
        return previous;
    }

    Counters counters(String url) {
        try (PreparedStatement ps = admin.prepareStatement("""
                SELECT xact_commit, xact_rollback, pg_snapshot_xmax(pg_current_snapshot())::text::bigint
                  FROM pg_stat_database WHERE datname = ?
                """)) {
            ps.setString(1, databaseName(url));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Counters(rs.getLong(1), rs.getLong(2), rs.getLong(3));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read pg_stat_database", e);
        }
    }

    /** The server settings that decide what a commit costs. */
    Map<String, String> settings(String url) {
        Map<String, String> out = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection(url);
                Statement st = c.createStatement()) {
            for (String name : new String[] {
                "server_version", "synchronous_commit", "fsync", "wal_sync_method", "shared_buffers", "max_connections"
            }) {
                try (ResultSet rs = st.executeQuery("SHOW " + name)) {
                    rs.next();
                    out.put(name, rs.getString(1));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the server settings", e);
        }
        return out;
    }

    /** A setting as the server runs it outside the benchmark databases, with where it comes from. */
    String serverSetting(String name) {
        try (PreparedStatement ps = admin.prepareStatement("SELECT setting, source FROM pg_settings WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1) + " (" + rs.getString(2) + ")";
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read pg_settings", e);
        }
    }

    /** The postmaster's process id (the parent of this cluster's backends), for CPU accounting. */
    long postmasterPid() {
        try (Statement st = admin.createStatement();
                ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return CpuMeter.parentOf(rs.getLong(1));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the backend pid", e);
        }
    }

    private void execute(String sql) {
        try (Statement st = admin.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("failed: " + sql, e);
        }
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        try {
            admin.close();
        } catch (SQLException e) {
            // the server goes down next anyway
        }
        if (own != null) {
            own.close();
            try (Stream<Path> files = Files.walk(ownDirectory)) {
                files.sorted(Comparator.reverseOrder())
                        .forEach(path -> path.toFile().delete());
            } catch (IOException e) {
                System.err.println("could not remove " + ownDirectory + ": " + e);
            }
        }
    }
}
