package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CancelTest {

    @Test
    void aQueuedJobIsCanceledAndNeverCalled() {
        try (TestServer server = TestServer.start(Map.of("IDEM_ROLE", "api"))) {
            String id = server.post("/v1/jobs", TestServer.ADMIN_KEY, "{\"prompt\": \"x\"}")
                    .body()
                    .get("id")
                    .asText();
            var reply = server.post("/v1/jobs/" + id + "/cancel", TestServer.ADMIN_KEY, null);
            assertThat(reply.status()).isEqualTo(200);
            assertThat(reply.body().get("state").asText()).isEqualTo("canceled");
            assertThat(reply.body().get("provider_calls").asInt()).isZero();
            assertThat(server.post("/v1/jobs/" + id + "/cancel", TestServer.ADMIN_KEY, null)
                            .status())
                    .isEqualTo(409);
        }
    }

    @Test
    void anInFlightJobIsCanceledAtTheVendorAndNotBilled() {
        try (TestServer server = TestServer.start()) {
            // Both providers are slow, so whichever call is in flight (a stale pooled connection may
            // legitimately fail the first one over before it is sent) is the one the cancel stops.
            String id = server.post(
                            "/v1/jobs",
                            TestServer.ADMIN_KEY,
                            "{\"prompt\": \"x\", \"timeout\": 30,"
                                    + " \"simulate\": {\"primary\": \"slow:8000\", \"backup\": \"slow:8000\"}}")
                    .body()
                    .get("id")
                    .asText();
            await().until(() -> lastAttempt(server, id) != null
                    && lastAttempt(server, id).get("finished_at").isNull());
            server.awaitAtVendor();
            var reply = server.post("/v1/jobs/" + id + "/cancel", TestServer.ADMIN_KEY, null);
            assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
            assertThat(reply.body().get("state").asText()).isEqualTo("canceled");
            await().until(() -> lastAttempt(server, id).get("finished_at").isTextual());
            var job = server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY).body();
            assertThat(job.get("state").asText()).isEqualTo("canceled");
            assertThat(job.get("attempts"))
                    .as(job.toString())
                    .allSatisfy(a -> assertThat(a.get("billable").asText()).isEqualTo("no"));
            assertThat(server.node().fakes().get("primary").ledger()).isEmpty();
            assertThat(server.node().fakes().get("backup").ledger()).isEmpty();
        }
    }

    private static com.fasterxml.jackson.databind.JsonNode lastAttempt(TestServer server, String id) {
        var attempts = server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY).body().get("attempts");
        return attempts.isEmpty() ? null : attempts.get(attempts.size() - 1);
    }

    @Test
    void anInFlightJobWhoseVendorCannotCancelIsParked() {
        try (var vendor = io.idem.providers.fake.FakeVendorServer.start(0);
                TestServer server = TestServer.start(Map.of("PROVIDERS_JSON", """
                        {"providers": {"primary": {"adapter": "fake", "base_url": "%s", "cancel": false}}}
                        """.formatted(vendor.baseUrl())))) {
            String id = server.post(
                            "/v1/jobs",
                            TestServer.ADMIN_KEY,
                            "{\"prompt\": \"x\", \"timeout\": 30, \"simulate\": {\"primary\": \"slow:3000\"}}")
                    .body()
                    .get("id")
                    .asText();
            await().until(() -> server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY)
                            .body()
                            .get("attempts")
                            .size()
                    == 1);
            var reply = server.post("/v1/jobs/" + id + "/cancel", TestServer.ADMIN_KEY, null);
            assertThat(reply.body().get("state").asText()).isEqualTo("manual_review");
            assertThat(reply.body().get("review").get("reason").asText()).isEqualTo("cancel_unconfirmed");
            // the call still finishes; its late result lands on the attempt and reconcile promotes it
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY)
                            .body()
                            .get("attempts")
                            .get(0)
                            .get("status")
                            .asText()
                            .equals("succeeded"));
            server.node().reconciler().reconcileNow(java.util.UUID.fromString(id), "test");
            assertThat(server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY)
                            .body()
                            .get("state")
                            .asText())
                    .isEqualTo("succeeded");
        }
    }
}
