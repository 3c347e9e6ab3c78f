package io.idem.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * A migrated PostgreSQL database behind a HikariCP pool. The JDBC URL may carry {@code user} and
 * {@code password} parameters; it is never logged (it may hold a password).
 */
public final class Database implements AutoCloseable {
    /** Writer threads of the shared commits, and the most works one commit carries. */
    private static final int SHARED_WRITERS = 2;

    private static final int SHARED_BATCH = 64;

    private final HikariDataSource pool;
    private final String jdbcUrl;
    private final SharedCommits shared;

    private Database(HikariDataSource pool, String jdbcUrl) {
        this.pool = pool;
        this.jdbcUrl = jdbcUrl;
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
            Flyway.configure()
                    .dataSource(pool)
                    .locations("classpath:db/migration")
                    .load()
                    .migrate();
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        return new Database(pool, jdbcUrl);
    }

    public DataSource dataSource() {
        return pool;
    }

    /** The URL this database was opened with (for a dedicated LISTEN connection). Never log it. */
    String jdbcUrl() {
        return jdbcUrl;
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
        pool.close();
    }

    /** A unit of JDBC work. */
    @FunctionalInterface
    public interface SqlWork<T> {
        T run(Connection connection) throws SQLException;
    }
}
