package io.idem.server.videos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.postgres.TestDatabases;
import io.idem.providers.fake.FakeVendorServer;
import io.idem.server.TestServer;
import io.idem.server.chaos.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A long render survives its worker: a video job whose vendor is still rendering (a render that
 * may take up to the job's 30-minute deadline, acted out fast by the fake vendor) loses its worker
 * to SIGKILL mid-poll; the next worker finds the expired lease, parks the job rather than submit
 * again, reconciles it by our own reference once the vendor has finished, and the job succeeds
 * with one attempt, billed once on the vendor's own ledger.
 */
class VideoWorkerKillTest {

    @Test
    void aWorkerKilledMidPollLeavesTheRenderToBeReconciledAndBilledOnce() throws Exception {
        Path logs = Files.createTempDirectory("video-kill");
        try (FakeVendorServer vendor = FakeVendorServer.start(0)) {
            Map<String, String> env = new HashMap<>();
            env.put("IDEM_DATABASE_URL", TestDatabases.freshUrl());
            env.put("IDEM_SECRET", "video-kill-test-secret-0123456789abcdef");
            env.put("PROVIDERS_JSON", """
                    {"providers": {"primary": {"adapter": "fake", "base_url": "%s", "cost_per_second_usd": "0.05"}},
                     "lanes": {"standard": ["primary"]}}""".formatted(vendor.baseUrl()));
            env.put("IDEM_WORKER_LEASE_SECONDS", "3");
            env.put("RECONCILE_INTERVAL_SECONDS", "1");
            Map<String, String> api = new HashMap<>(env);
            api.put("IDEM_ROLE", "api");
            try (TestServer server = TestServer.start(api)) {
                String id = server.post("/v1/jobs", TestServer.ADMIN_KEY, """
                                {"prompt": "A slow sunrise over the bay", "kind": "video", "duration_seconds": 8,
                                 "timeout": 1800, "simulate": {"primary": "slow:8000"}}""")
                        .body()
                        .get("id")
                        .asText();

                ChildJvm first = worker("worker-1", env, logs);
                try {
                    await().atMost(Duration.ofSeconds(60))
                            .until(() -> attempt(server, id)
                                    .path("provider_request_id")
                                    .isTextual());
                    assertThat(vendor.running())
                            .as("the vendor is still rendering")
                            .isEqualTo(1);
                } finally {
                    first.kill(); // mid-poll: no hand-back, no cancel, exactly a crash
                }

                try (ChildJvm second = worker("worker-2", env, logs)) {
                    await().atMost(Duration.ofSeconds(90))
                            .until(() -> job(server, id).get("state").asText().equals("succeeded"));
                }
                JsonNode job = job(server, id);
                assertThat(job.get("attempts")).as(job.toString()).hasSize(1);
                assertThat(attempt(server, id).get("billable").asText()).isEqualTo("yes");
                String reference = attempt(server, id).get("id").asText();
                assertThat(vendor.ledger())
                        .as("one render on the vendor's invoice, for this attempt")
                        .hasSize(1)
                        .allMatch(line -> reference.equals(line.reference()));
            }
        }
    }

    private static ChildJvm worker(String name, Map<String, String> env, Path logs) {
        Map<String, String> mine = new HashMap<>(env);
        mine.put("IDEM_WORKER_ID", name);
        mine.put("IDEM_DATA_DIR", logs.resolve(name).toString());
        return ChildJvm.start(name, List.of("serve", "--role", "worker"), mine, logs.resolve(name + ".log"));
    }

    private static JsonNode job(TestServer server, String id) {
        return server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY).body();
    }

    private static JsonNode attempt(TestServer server, String id) {
        return job(server, id).get("attempts").path(0);
    }
}
