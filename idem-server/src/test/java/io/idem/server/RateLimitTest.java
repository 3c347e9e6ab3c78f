package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.breaker.BreakerState;
import io.idem.postgres.TestDatabases;
import io.idem.providers.fake.FakeVendorServer;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A vendor's 429 with {@code Retry-After} closes the provider for that long on every node, without
 * opening its breaker: jobs pass it over (or wait for it), and it serves again once the time is up.
 */
class RateLimitTest {

    @Test
    void aRetryAfterClosesTheProviderForThatLongOnEveryNodeWithoutOpeningItsBreaker() {
        try (FakeVendorServer primary = FakeVendorServer.start(0);
                FakeVendorServer backup = FakeVendorServer.start(0)) {
            Map<String, String> env = new HashMap<>();
            env.put("IDEM_DATABASE_URL", TestDatabases.freshUrl());
            env.put("IDEM_BREAKER_FAILURE_THRESHOLD", "1");
            // one health check at start only: at a threshold of 1 a check slowed by a busy machine would open it
            env.put("IDEM_HEALTH_CHECK_SECONDS", "3600");
            env.put("PROVIDERS_JSON", """
                    {"providers": {"primary": {"adapter": "fake", "base_url": "%s"},
                                   "backup": {"adapter": "fake", "base_url": "%s"}},
                     "lanes": {"standard": ["primary", "backup"]}}
                    """.formatted(primary.baseUrl(), backup.baseUrl()));
            Map<String, String> envA = new HashMap<>(env);
            envA.put("IDEM_WORKER_ID", "node-a");
            Map<String, String> envB = new HashMap<>(env);
            envB.put("IDEM_WORKER_ID", "node-b");
            try (TestServer a = TestServer.start(envA);
                    TestServer b = TestServer.start(envB)) {
                JsonNode limited = settled(a, submit(a, """
                        {"prompt": "one", "simulate": {"primary": "rate_limited:4"}}
                        """));
                Instant answered = Instant.now();
                assertThat(limited.get("state").asText()).isEqualTo("succeeded");
                assertThat(limited.get("result").get("provider").asText()).isEqualTo("backup");

                for (TestServer node : new TestServer[] {a, b}) {
                    await().atMost(Duration.ofSeconds(5))
                            .until(() -> node.node()
                                    .breakers()
                                    .snapshot("primary")
                                    .rateLimitedUntil()
                                    .isPresent());
                    assertThat(node.node().breakers().snapshot("primary").state())
                            .as("a rate limit is not an outage, even at a failure threshold of 1")
                            .isEqualTo(BreakerState.CLOSED);
                }
                Instant until = a.node()
                        .breakers()
                        .snapshot("primary")
                        .rateLimitedUntil()
                        .orElseThrow();
                assertThat(Duration.between(answered, until)).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(5));

                JsonNode passedOver = settled(b, submit(b, "{\"prompt\": \"two\"}"));
                assertThat(passedOver.get("result").get("provider").asText()).isEqualTo("backup");
                assertThat(passedOver.get("provider_calls").asInt()).isEqualTo(1);

                String pinned = submit(a, "{\"prompt\": \"three\", \"provider_policy\": {\"primary\": \"primary\"}}");
                JsonNode waited = settled(a, pinned);
                assertThat(waited.get("state").asText()).isEqualTo("succeeded");
                assertThat(waited.get("result").get("provider").asText()).isEqualTo("primary");
                assertThat(waited.get("provider_calls").asInt()).isEqualTo(1);
                assertThat(Instant.parse(waited.get("updated_at").asText())).isAfterOrEqualTo(until);
                assertThat(reasons(a, pinned)).contains("rate_limited");
            }
        }
    }

    private static String submit(TestServer node, String body) {
        var reply = node.post("/v1/jobs", TestServer.ADMIN_KEY, body);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(202);
        return reply.body().get("id").asText();
    }

    private static JsonNode settled(TestServer node, String id) {
        JsonNode[] job = new JsonNode[1];
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    job[0] = node.get("/v1/jobs/" + id, TestServer.ADMIN_KEY).body();
                    return !job[0].get("state").asText().matches("queued|running");
                });
        return job[0];
    }

    /** Why the job's deferrals waited, as their events say. */
    private static String reasons(TestServer node, String id) {
        StringBuilder out = new StringBuilder();
        node.get("/v1/jobs/" + id + "/events", TestServer.ADMIN_KEY)
                .body()
                .get("data")
                .forEach(e -> {
                    if (e.get("type").asText().equals("job.deferred")) {
                        e.get("detail")
                                .get("candidates")
                                .forEach(c ->
                                        out.append(c.get("reason").asText()).append(' '));
                    }
                });
        return out.toString();
    }
}
