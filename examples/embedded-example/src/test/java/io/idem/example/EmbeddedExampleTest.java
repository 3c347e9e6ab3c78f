package io.idem.example;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.idem.embedded.JobState;
import io.idem.postgres.EmbeddedDatabase;
import io.idem.providers.fake.FakeVendorServer;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class EmbeddedExampleTest {

    @Test
    void theExampleRunsOneJobOnceAndGetsAChatAnswer() throws Exception {
        try (FakeVendorServer vendor = FakeVendorServer.start(0);
                EmbeddedDatabase postgres = EmbeddedDatabase.startTemporary();
                HikariDataSource pool = EmbeddedExample.pool(postgres.jdbcUrl("postgres"))) {
            EmbeddedExample.Outcome outcome =
                    EmbeddedExample.run(vendor.baseUrl(), pool, Files.createTempDirectory("idem-example-test"));

            assertThat(outcome.job().state()).isEqualTo(JobState.SUCCEEDED);
            assertThat(outcome.job().providerCalls()).isEqualTo(1);
            assertThat(vendor.ledger()).hasSize(1);
            assertThat(outcome.answer().text()).isNotBlank();
            assertThat(outcome.answer().servedModel()).isEqualTo("fake-chat-a");
        }
    }
}
