package io.idem.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.idem.postgres.TestDatabases;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What Idem does to the caller's pool: migrates it, leaves it open, refuses one that does not auto-commit. */
class DataSourceTest {

    private static HikariDataSource pool(boolean autoCommit) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(TestDatabases.freshUrl());
        config.setMaximumPoolSize(6);
        config.setAutoCommit(autoCommit);
        return new HikariDataSource(config);
    }

    @Test
    void buildMigratesTheCallersDatabaseCreatesNoAdminKeyAndCloseLeavesThePoolOpen() throws Exception {
        try (HikariDataSource pool = pool(true)) {
            Idem.builder()
                    .database(pool)
                    .dataDirectory(Files.createTempDirectory("idem-ds"))
                    .environment(Map.of())
                    .workers(0)
                    .build()
                    .close();

            assertThat(pool.isClosed()).isFalse();
            assertThat(count(pool, "SELECT count(*) FROM jobs")).isZero();
            assertThat(count(pool, "SELECT count(*) FROM api_keys")).isZero();
        }
    }

    @Test
    void jobsAreStampedByTheGivenClock() throws Exception {
        Instant then = Instant.parse("2031-05-01T10:00:00Z");
        try (HikariDataSource pool = pool(true);
                Idem idem = Idem.builder()
                        .database(pool)
                        .dataDirectory(Files.createTempDirectory("idem-clock"))
                        .environment(Map.of())
                        .clock(Clock.fixed(then, ZoneOffset.UTC))
                        .workers(0)
                        .build()) {
            assertThat(idem.submit(JobRequest.of("stamped"), null).createdAt()).isEqualTo(then);
        }
    }

    private static long count(HikariDataSource pool, String query) throws java.sql.SQLException {
        try (Connection c = pool.getConnection();
                ResultSet rs = c.createStatement().executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void aPoolWhoseConnectionsDoNotAutoCommitIsRefused() {
        try (HikariDataSource pool = pool(false)) {
            assertThatThrownBy(() ->
                            Idem.builder().database(pool).environment(Map.of()).build())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("auto-commit");
        }
    }
}
