package io.idem.embedded;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.idem.postgres.TestDatabases;
import io.idem.providers.fake.FakeVendor;
import io.idem.providers.fake.FakeVendorServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Map;

/** An embedded Idem for tests: a fresh database in a caller-owned pool, one fake vendor with a chat model. */
final class EmbeddedNodes implements AutoCloseable {
    final FakeVendorServer vendor = FakeVendorServer.start(0);
    final HikariDataSource pool;
    final Idem idem;

    EmbeddedNodes() {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(TestDatabases.freshUrl());
        config.setMaximumPoolSize(12);
        pool = new HikariDataSource(config);
        try {
            idem = Idem.builder()
                    .database(pool)
                    .providers("""
                            {"providers": {"primary": {"adapter": "%s", "base_url": "%s", "chat_models": ["fake-chat-a"]}},
                             "lanes": {"standard": ["primary"]}}""".formatted(FakeVendor.NAME, vendor.baseUrl()))
                    .dataDirectory(Files.createTempDirectory("idem-embedded-test"))
                    .secret("test-secret-0123456789abcdef")
                    // The sweep would reconcile parked jobs on its own; the tests decide them.
                    // Failures the tests ask the fake for must not open the one provider's breaker for the next test.
                    .environment(
                            Map.of("RECONCILE_INTERVAL_SECONDS", "86400", "IDEM_BREAKER_FAILURE_THRESHOLD", "1000"))
                    .workers(4)
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        idem.close();
        pool.close();
        vendor.close();
    }
}
