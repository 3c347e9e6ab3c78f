package io.idem.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.idem.postgres.TestDatabases;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
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
    void buildMigratesTheCallersDatabaseAndCloseLeavesThePoolOpen() throws Exception {
        try (HikariDataSource pool = pool(true)) {
            Idem.builder()
                    .database(pool)
                    .dataDirectory(Files.createTempDirectory("idem-ds"))
                    .environment(Map.of())
                    .workers(0)
                    .build()
                    .close();

            assertThat(pool.isClosed()).isFalse();
            try (Connection c = pool.getConnection();
                    ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM jobs")) {
                rs.next();
                assertThat(rs.getLong(1)).isZero();
            }
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
