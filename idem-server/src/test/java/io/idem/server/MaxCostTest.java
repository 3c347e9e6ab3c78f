package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.providers.fake.FakeVendorServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A job's own cost ceiling ({@code max_cost_usd}) on {@code /v1/jobs} and {@code /v1/images/generations}. */
class MaxCostTest {
    private static FakeVendorServer a;
    private static FakeVendorServer b;
    private static TestServer server;

    @BeforeAll
    static void start() {
        a = FakeVendorServer.start(0);
        b = FakeVendorServer.start(0);
        server = TestServer.start(Map.of("PROVIDERS_JSON", """
                {"providers": {
                   "primary": {"adapter": "fake", "base_url": "%s", "cost_per_image_usd": "0.08"},
                   "backup": {"adapter": "fake", "base_url": "%s", "cost_per_image_usd": "0.04"}}}
                """.formatted(a.baseUrl(), b.baseUrl())));
    }

    @AfterAll
    static void stop() {
        server.close();
        a.close();
        b.close();
    }

    private static JsonNode settled(String body) {
        var accepted = server.post("/v1/jobs", TestServer.ADMIN_KEY, body);
        assertThat(accepted.status()).as(accepted.raw()).isEqualTo(202);
        String id = accepted.body().get("id").asText();
        JsonNode[] job = new JsonNode[1];
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            job[0] = server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY).body();
            return job[0].get("state").asText().matches("succeeded|failed|manual_review");
        });
        return job[0];
    }

    @Test
    void aCandidateWhoseExpectedCostPassesTheCeilingIsSkippedWithTheReasonAndTheSpendIsShown() {
        int primaryCalls = a.ledger().size();
        JsonNode job = settled("{\"prompt\": \"x\", \"max_cost_usd\": \"0.05\"}");

        assertThat(job.get("result").get("provider").asText()).isEqualTo("backup");
        assertThat(job.get("max_cost_usd").asText()).isEqualTo("0.05");
        assertThat(job.get("spent_usd").asText()).isEqualTo("0.04");
        assertThat(a.ledger()).hasSize(primaryCalls);
        JsonNode events = server.get("/v1/jobs/" + job.get("id").asText() + "/events", TestServer.ADMIN_KEY)
                .body()
                .get("data");
        assertThat(events).anySatisfy(e -> {
            assertThat(e.get("type").asText()).isEqualTo("candidate.skipped");
            assertThat(e.get("detail").get("provider").asText()).isEqualTo("primary");
            assertThat(e.get("detail").get("reason").asText()).isEqualTo("over_max_cost");
        });
    }

    @Test
    void aJobThatNoCandidateFitsFailsWithoutCallingAny() {
        int calls = a.ledger().size() + b.ledger().size();
        JsonNode job = settled("{\"prompt\": \"x\", \"max_cost_usd\": 0.01}");

        assertThat(job.get("state").asText()).isEqualTo("failed");
        assertThat(job.get("error").get("code").asText()).isEqualTo("providers_exhausted");
        assertThat(job.get("error").get("message").asText()).contains("primary=over_max_cost", "backup=over_max_cost");
        assertThat(job.get("spent_usd").asText()).isEqualTo("0");
        assertThat(a.ledger().size() + b.ledger().size()).isEqualTo(calls);
    }

    @Test
    void aBadCeilingIsRefusedWith400OnBothEndpointsAndNothingIsWritten() {
        int jobs = server.get("/v1/jobs?limit=200", TestServer.ADMIN_KEY)
                .body()
                .get("data")
                .size();
        for (String bad : List.of("0", "-0.5", "\"abc\"", "1000001", "0.0000001", "true", "[]", "\"1e3\"")) {
            for (String path : List.of("/v1/jobs", "/v1/images/generations")) {
                var reply =
                        server.post(path, TestServer.ADMIN_KEY, "{\"prompt\": \"x\", \"max_cost_usd\": " + bad + "}");
                assertThat(reply.status()).as(path + " " + bad).isEqualTo(400);
                assertThat(reply.body().get("error").get("code").asText()).isEqualTo("invalid_max_cost_usd");
            }
        }
        assertThat(server.get("/v1/jobs?limit=200", TestServer.ADMIN_KEY)
                        .body()
                        .get("data")
                        .size())
                .isEqualTo(jobs);
    }

    @Test
    void theImagesEndpointTakesTheCeilingAsAnIdemExtension() {
        var reply = server.post(
                "/v1/images/generations", TestServer.ADMIN_KEY, "{\"prompt\": \"x\", \"max_cost_usd\": 0.05}");

        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.body().get("data")).hasSize(1);
    }
}
