package io.idem.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.idem.postgres.TestDatabases;
import io.idem.providers.fake.FakeVendor;
import io.idem.providers.fake.FakeVendorServer;
import io.idem.server.IdemServer;
import io.idem.server.config.ConfigLoader;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** An embedded node without workers shares its database with an {@code idem serve} node that runs the jobs. */
class BesideServeNodeTest {
    private static final String SECRET = "shared-secret-0123456789abcdef";

    @Test
    void aJobSubmittedInProcessIsRunByTheServeNodeAndSeenFinished() throws Exception {
        String url = TestDatabases.freshUrl();
        try (FakeVendorServer vendor = FakeVendorServer.start(0)) {
            String providers = """
                    {"providers": {"primary": {"adapter": "%s", "base_url": "%s"}}, "lanes": {"standard": ["primary"]}}""".formatted(FakeVendor.NAME, vendor.baseUrl());
            var serveConfig = new ConfigLoader(Map.of(
                            "IDEM_PORT",
                            "0",
                            "IDEM_DATA_DIR",
                            Files.createTempDirectory("idem-serve").toString(),
                            "IDEM_DATABASE_URL",
                            url,
                            "IDEM_SECRET",
                            SECRET,
                            "IDEM_BOOTSTRAP_KEY",
                            "idem_test_admin_key_0123456789",
                            "PROVIDERS_JSON",
                            providers))
                    .load(Optional.empty());
            HikariConfig pool = new HikariConfig();
            pool.setJdbcUrl(url);
            pool.setMaximumPoolSize(8);
            try (IdemServer serve = IdemServer.start(serveConfig, new PrintStream(PrintStream.nullOutputStream()));
                    HikariDataSource dataSource = new HikariDataSource(pool);
                    Idem idem = Idem.builder()
                            .database(dataSource)
                            .providers(providers)
                            .secret(SECRET)
                            .dataDirectory(Files.createTempDirectory("idem-embedded"))
                            .environment(Map.of())
                            .workers(0)
                            .build()) {
                Job job = idem.submit(JobRequest.of("run elsewhere"), "beside-1");

                Job finished = idem.await(job.id(), Duration.ofSeconds(30));

                assertThat(finished.state()).isEqualTo(JobState.SUCCEEDED);
                assertThat(finished.providerCalls()).isEqualTo(1);
                assertThat(vendor.ledger()).hasSize(1);
                assertThat(idem.submit(JobRequest.of("run elsewhere"), "beside-1")
                                .id())
                        .isEqualTo(job.id());
            }
        }
    }
}
