package io.idem.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL 18 server run from the zonky binaries, with its data kept in a directory across
 * restarts. Used when no {@code IDEM_DATABASE_URL} is given, and by the tests.
 */
public final class EmbeddedDatabase implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedDatabase.class);

    private final EmbeddedPostgres postgres;

    private EmbeddedDatabase(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    /** Starts (initialising on first use) a server whose data lives in {@code dataDirectory}. */
    public static EmbeddedDatabase start(Path dataDirectory) {
        return start(dataDirectory, Map.of());
    }

    /**
     * Starts a server as {@link #start(Path)} does, with {@code extra} server settings on top (a
     * benchmark's {@code shared_preload_libraries}, say).
     */
    public static EmbeddedDatabase start(Path dataDirectory, Map<String, String> extra) {
        try {
            Files.createDirectories(dataDirectory);
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(false)
                    .setServerConfig("max_connections", "200")
                    .setServerConfig("fsync", "on")
                    // zonky's default is off; a 202 or a write-ahead row must be on disk before we act on it
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("full_page_writes", "on");
            extra.forEach(builder::setServerConfig);
            EmbeddedPostgres postgres = builder.start();
            log.info("embedded PostgreSQL running on port {} with data in {}", postgres.getPort(), dataDirectory);
            return new EmbeddedDatabase(postgres);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start embedded PostgreSQL in " + dataDirectory, e);
        }
    }

    /** A throwaway server in a temporary directory, removed when closed (tests, benchmarks). */
    public static EmbeddedDatabase startTemporary() {
        try {
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setServerConfig("max_connections", "300")
                    .start();
            return new EmbeddedDatabase(postgres);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start embedded PostgreSQL", e);
        }
    }

    /** JDBC URL of a database on this server (user {@code postgres}, no password). */
    public String jdbcUrl(String database) {
        return postgres.getJdbcUrl("postgres", database);
    }

    public int port() {
        return postgres.getPort();
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not stop embedded PostgreSQL", e);
        }
    }
}
