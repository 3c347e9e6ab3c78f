package io.idem.example;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.idem.embedded.ChatAnswer;
import io.idem.embedded.ChatRequest;
import io.idem.embedded.Idem;
import io.idem.embedded.Job;
import io.idem.embedded.JobRequest;
import io.idem.postgres.EmbeddedDatabase;
import io.idem.providers.fake.FakeVendor;
import io.idem.providers.fake.FakeVendorServer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Idem inside a Java program: one job and one chat call against the fake vendor, on a throwaway
 * PostgreSQL. A real service passes its own pool and its real providers instead.
 */
public final class EmbeddedExample {
    /** What the example did: the finished job and the chat answer. */
    public record Outcome(Job job, ChatAnswer answer) {}

    private EmbeddedExample() {}

    public static void main(String[] args) throws Exception {
        try (FakeVendorServer vendor = FakeVendorServer.start(0);
                EmbeddedDatabase postgres = EmbeddedDatabase.startTemporary();
                HikariDataSource pool = pool(postgres.jdbcUrl("postgres"))) {
            Outcome outcome = run(vendor.baseUrl(), pool, Files.createTempDirectory("idem-example"));
            System.out.println("job " + outcome.job().id() + " "
                    + outcome.job().state().wire() + " after " + outcome.job().providerCalls() + " provider call(s)");
            System.out.println("chat answer from " + outcome.answer().servedModel() + ": "
                    + outcome.answer().text());
            System.out.println("the vendor billed " + vendor.ledger().size() + " generation(s)");
        }
    }

    /** A small pool, as a service would already have one. */
    static HikariDataSource pool(String jdbcUrl) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setMaximumPoolSize(16);
        return new HikariDataSource(config);
    }

    /** Submits a job (twice, with one idempotency key: one job) and makes a chat call. */
    public static Outcome run(URI vendorUrl, DataSource database, Path dataDirectory)
            throws InterruptedException, IOException {
        String providers = """
                {"providers": {"vendor": {"adapter": "%s", "base_url": "%s", "chat_models": ["fake-chat-a"]}},
                 "lanes": {"standard": ["vendor"]}}""".formatted(FakeVendor.NAME, vendorUrl);
        try (Idem idem = Idem.builder()
                .database(database)
                .providers(providers)
                .dataDirectory(dataDirectory)
                .secret("example-secret-0123456789abcdef")
                .environment(Map.of())
                .workers(4)
                .build()) {
            JobRequest request = JobRequest.builder("A lighthouse over a cloud ocean")
                    .size("512x512")
                    .build();
            Job accepted = idem.submit(request, "order-42");
            Job again = idem.submit(request, "order-42");
            if (!again.id().equals(accepted.id())) {
                throw new IllegalStateException("the same key and request made a second job");
            }
            Job finished = idem.await(accepted.id(), Duration.ofSeconds(30));
            ChatAnswer answer = idem.chat(ChatRequest.builder("fake-chat-a")
                    .user("Say hello in one word")
                    .build());
            return new Outcome(finished, answer);
        }
    }
}
