package io.idem.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * A migrated PostgreSQL database behind a connection pool: Idem's own HikariCP pool over a JDBC URL
 * ({@link #open}), or a pool an embedding service owns ({@link #over}). The JDBC URL may carry
 * {@code user} and {@code password} parameters; it is never logged (it may hold a password).
 */
public final class Database implements AutoCloseable {
    /** Writer threads of the shared commits, and the most works one commit carries. */
    private static final int SHARED_WRITERS = 2;

    private static final int SHARED_BATCH = 64;

    private final DataSource pool;
    private final String jdbcUrl;
    private final Runnable onClose;
    private final SharedCommits shared;

    private Database(DataSource pool, String jdbcUrl, Runnable onClose) {
        this.pool = pool;
        this.jdbcUrl = jdbcUrl;
        this.onClose = onClose;
        this.shared = new SharedCommits(this, SHARED_WRITERS, SHARED_BATCH);
    }

    /** Opens a pool of {@code poolSize} connections and applies every pending migration. */
    public static Database open(String jdbcUrl, int poolSize) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(Math.min(4, poolSize));
        config.setPoolName("idem");
        config.setConnectionTimeout(10_000);
        HikariDataSource pool = new HikariDataSource(config);
        try {
            migrate(pool);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        return new Database(pool, jdbcUrl, pool::close);
    }

    /**
     * The database behind a pool the caller owns, with every pending migration applied: {@link
     * #close()} leaves the pool open, and LISTEN holds one of its connections. Its connections must
     * be in auto-commit mode, as JDBC's are by default: each store commits its own statements.
     *
     * @throws IllegalArgumentException when the pool hands out connections that do not auto-commit
     */
    public static Database over(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            if (!connection.getAutoCommit()) {
                throw new IllegalArgumentException(
                        "the DataSource must hand out auto-commit connections (Idem commits its own statements)");
            }
        } catch (SQLException e) {
            throw new UnableToQueryException(e);
        }
        migrate(dataSource);
        return new Database(dataSource, null, () -> {});
    }

    private static void migrate(DataSource dataSource) {
        Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .load()
                .migrate();
    }

    public DataSource dataSource() {
        return pool;
    }

    /**
     * A connection to hold for LISTEN: a dedicated one over the URL this database was opened with
     * (never log it), or else one of the caller's pool.
     */
    Connection listenConnection() throws SQLException {
        return jdbcUrl == null ? pool.getConnection() : DriverManager.getConnection(jdbcUrl);
    }

    /** Runs {@code work} in one transaction and commits it; rolls back on any exception. */
    public <T> T inTransaction(SqlWork<T> work) {
        try (Connection connection = pool.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T value = work.run(connection);
                connection.commit();
                return value;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new UnableToQueryException(e);
        }
    }

    /**
     * Runs {@code work} in a transaction that other callers' works may share (one commit for all of
     * them, see {@link SharedCommits}) and returns its result once that commit is durable. For the
     * small, hot writes of many jobs at once: a write-ahead, a settle. The work must not commit or
     * roll back, and must name its own rows.
     */
    public <T> T inSharedTransaction(SqlWork<T> work) {
        return shared.run(work);
    }

    /** How many shared commits carried how many works so far: {@code [commits, works]}. */
    public long[] sharedCommitCounts() {
        return new long[] {shared.commits(), shared.works()};
    }

    /** Runs {@code work} on one connection in auto-commit mode. */
    public <T> T withConnection(SqlWork<T> work) {
        try (Connection connection = pool.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw new UnableToQueryException(e);
        }
    }

    @Override
    public void close() {
        shared.close();
        onClose.run();
    }

    /** A unit of JDBC work. */
    @FunctionalInterface
    public interface SqlWork<T> {
        T run(Connection connection) throws SQLException;
    }
}
