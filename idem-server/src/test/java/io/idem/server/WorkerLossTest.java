package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.spi.AttemptDraft;
import io.idem.postgres.PgJobQueueStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A worker lost mid-call parks the job; nobody calls the provider a second time. */
class WorkerLossTest {

    @Test
    void aWorkerLostMidCallLeavesTheJobInReviewAndNeverCausesASecondCall() {
        try (TestServer server = TestServer.start(Map.of("IDEM_ROLE", "api"))) {
            String id = server.post("/v1/jobs", TestServer.ADMIN_KEY, "{\"prompt\": \"x\"}")
                    .body()
                    .get("id")
                    .asText();
            PgJobQueueStore store = new PgJobQueueStore(server.node().database());
            // The "crashed" worker: claims, writes its attempt ahead, and is never heard from again.
            var claimed = store.claim("doomed", 1, Instant.now(), Duration.ofSeconds(3))
                    .getFirst();
            assertThat(store.writeAhead(
                            claimed.lease(),
                            new AttemptDraft(UUID.randomUUID(), "primary", "fake-image-v1", 1),
                            Instant.now()))
                    .hasToString("WRITTEN");

            assertThat(store.sweepExpiredLeases(Instant.now().plusSeconds(4), 100))
                    .isEqualTo(1);

            var job = server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY).body();
            assertThat(job.get("state").asText()).isEqualTo("manual_review");
            assertThat(job.get("review").get("reason").asText()).isEqualTo("worker_lost");
            assertThat(job.get("attempts")).hasSize(1);
            assertThat(job.get("attempts").get(0).get("status").asText()).isEqualTo("unconfirmed");
            assertThat(job.get("attempts").get(0).get("billable").asText()).isEqualTo("unknown");
            // No worker may take it up again: it is not queued, and the open attempt blocks any other.
            assertThat(store.claim("fresh", 10, Instant.now().plusSeconds(5), Duration.ofSeconds(30)))
                    .isEmpty();
        }
    }

    @Test
    void aWorkerThatDiesBeforeCallingIsReplacedAndTheJobIsDoneOnce() {
        try (TestServer server = TestServer.start()) {
            server.node().worker().close();
            String id = server.post("/v1/jobs", TestServer.ADMIN_KEY, "{\"prompt\": \"x\"}")
                    .body()
                    .get("id")
                    .asText();
            PgJobQueueStore store = new PgJobQueueStore(server.node().database());
            store.claim("doomed", 1, Instant.now(), Duration.ofSeconds(3));
            assertThat(store.sweepExpiredLeases(Instant.now().plusSeconds(4), 100))
                    .isEqualTo(1);
            var events = server.get("/v1/jobs/" + id + "/events", TestServer.ADMIN_KEY)
                    .body()
                    .get("data");
            assertThat(events.get(events.size() - 1).get("type").asText()).isEqualTo("job.requeued");
            assertThat(server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY)
                            .body()
                            .get("state")
                            .asText())
                    .isEqualTo("queued");
        }
    }

    @Test
    void aPolicyRefusalWhoseAnswerWasLostInACrashFailsTheJobAndNeverReachesTheBackup() {
        try (TestServer server = TestServer.start(Map.of("IDEM_ROLE", "api"))) {
            String id = server.post(
                            "/v1/jobs",
                            TestServer.ADMIN_KEY,
                            "{\"prompt\": \"x\", \"timeout\": 1, \"simulate\": {\"primary\": \"policy\"}}")
                    .body()
                    .get("id")
                    .asText();
            PgJobQueueStore store = new PgJobQueueStore(server.node().database());
            var claimed = store.claim("doomed", 1, Instant.now(), Duration.ofSeconds(3))
                    .getFirst();
            UUID attempt = UUID.randomUUID();
            store.writeAhead(claimed.lease(), new AttemptDraft(attempt, "primary", "fake-image-v1", 1), Instant.now());
            // The call goes out and the vendor refuses it; the worker dies before saving the answer.
            var settings = server.node().fakes().get("primary");
            var adapter = io.idem.providers.Adapters.create(
                    new io.idem.core.provider.ProviderSettings(
                            "primary",
                            "fake",
                            settings.baseUrl(),
                            java.util.Optional.empty(),
                            "fake-image-v1",
                            Map.of(),
                            Duration.ofSeconds(2),
                            java.math.BigDecimal.ZERO,
                            true),
                    java.time.InstantSource.system());
            adapter.generate(new io.idem.core.spi.GenerationCall(
                    "primary",
                    "fake-image-v1",
                    io.idem.core.spi.GenerationCall.Request.images("x", "1024x1024", 1),
                    Duration.ofSeconds(1),
                    attempt.toString(),
                    java.util.Optional.of("policy"),
                    io.idem.core.spi.AttemptListener.NONE));
            store.sweepExpiredLeases(Instant.now().plusSeconds(4), 100);
            assertThat(server.node()
                            .reconciler()
                            .reconcileNow(UUID.fromString(id), "test")
                            .name())
                    .isEqualTo("FAILED");
            var job = server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY).body();
            assertThat(job.get("state").asText()).isEqualTo("failed");
            assertThat(job.get("error").get("class").asText()).isEqualTo("policy");
            assertThat(job.get("attempts")).hasSize(1);
            assertThat(job.get("attempts").get(0).get("billable").asText()).isEqualTo("no");
        }
    }
}
