package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What each answer tells an SDK's automatic retries: {@code x-should-retry: false} wherever a retry
 * could start a second paid generation, {@code true} with {@code retry-after-ms} and {@code
 * Retry-After} where a retry is safe and worth it.
 */
class RetryHeadersTest {
    private static final String ADMIN = TestServer.ADMIN_KEY;
    private static final String HELLO = "\"messages\":[{\"role\":\"user\",\"content\":\"hi there\"}]";
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static TestServer.Reply chat(String fields, Map<String, String> headers) {
        return server.send("POST", "/v1/chat/completions", ADMIN, "{" + fields + "," + HELLO + "}", headers);
    }

    @Test
    void anAcceptedJobTellsTheClientNotToRetry() {
        var created = server.post("/v1/jobs", ADMIN, "{\"prompt\":\"retry headers 202\"}");
        assertThat(created.status()).isEqualTo(202);
        assertThat(created.header("x-should-retry")).isEqualTo("false");
    }

    @Test
    void aReplayedJobTellsTheClientNotToRetry() {
        Map<String, String> key = Map.of("Idempotency-Key", "retry-headers-replay");
        server.send("POST", "/v1/jobs", ADMIN, "{\"prompt\":\"retry headers replay\"}", key);
        var replay = server.send("POST", "/v1/jobs", ADMIN, "{\"prompt\":\"retry headers replay\"}", key);
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.header("x-should-retry")).isEqualTo("false");
    }

    @Test
    void anImageFailureAfterProvidersWereCalledTellsTheClientNotToRetry() {
        var failed = server.post(
                "/v1/images/generations",
                ADMIN,
                "{\"prompt\":\"both fail\",\"simulate\":{\"primary\":\"http_503\",\"backup\":\"http_503\"}}");
        assertThat(failed.status()).as(failed.raw()).isEqualTo(503);
        assertThat(failed.header("x-should-retry")).isEqualTo("false");
        assertThat(failed.header("retry-after-ms")).isNull();
    }

    @Test
    void anImageJobParkedInManualReviewTellsTheClientNotToRetry() {
        var parked = server.post(
                "/v1/images/generations",
                ADMIN,
                "{\"prompt\":\"billed, lost\",\"simulate\":{\"primary\":\"disconnect\"}}");
        assertThat(parked.status()).as(parked.raw()).isEqualTo(202);
        assertThat(parked.body().get("state").asText()).isEqualTo("manual_review");
        assertThat(parked.header("x-should-retry")).isEqualTo("false");
    }

    @Test
    void aChatThatFailedAfterCallingModelsTellsTheClientNotToRetry() {
        var failed = chat(
                "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],"
                        + "\"simulate\":{\"fake-chat-a\":\"http_503\",\"fake-chat-b\":\"http_503\"}",
                Map.of());
        assertThat(failed.status()).isEqualTo(502);
        assertThat(failed.header("x-should-retry")).isEqualTo("false");
    }

    @Test
    void aChatWhoseModelsAllRateLimitedSaysWhenButNotToRetryByItself() {
        var limited = chat(
                "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],"
                        + "\"simulate\":{\"fake-chat-a\":\"http_429\",\"fake-chat-b\":\"http_429\"}",
                Map.of());
        assertThat(limited.status()).isEqualTo(429);
        assertThat(limited.header("x-should-retry")).isEqualTo("false");
        assertThat(limited.header("Retry-After")).isEqualTo("1");
    }

    @Test
    void aRunningChatKeyTellsTheClientNotToRetryByItself() throws Exception {
        String fields = "\"model\":\"fake-chat-a\",\"simulate\":{\"fake-chat-a\":\"slow:1500\"}";
        Map<String, String> key = Map.of("Idempotency-Key", "retry-headers-busy");
        var running = java.util.concurrent.CompletableFuture.supplyAsync(() -> chat(fields, key));
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(5))
                .until(() -> server.node().database().withConnection(c -> {
                    try (var rs = c.createStatement()
                            .executeQuery("SELECT count(*) FROM chat_idempotency WHERE state = 'running'")) {
                        rs.next();
                        return rs.getLong(1) > 0;
                    }
                }));
        var busy = chat(fields, key);
        assertThat(busy.status()).isEqualTo(409);
        assertThat(busy.header("x-should-retry")).isEqualTo("false");
        assertThat(busy.header("Retry-After")).isNotNull();
        assertThat(running.get().status()).isEqualTo(200);
    }

    @Test
    void aSpentKeyBudgetSaysWhenItTurnsButNotToRetryByItself() {
        var created = server.post("/v1/admin/keys", ADMIN, "{\"owner\":\"retry-budget\",\"role\":\"client\"}");
        String id = created.body().get("id").asText();
        String key = created.body().get("key").asText();
        server.send("PATCH", "/v1/admin/keys/" + id, ADMIN, "{\"daily_budget_usd\":\"0.00001\"}", Map.of());
        server.send("POST", "/v1/chat/completions", key, "{\"model\":\"fake-chat-a\"," + HELLO + "}", Map.of());
        server.awaitChatAudit();
        var blocked =
                server.send("POST", "/v1/chat/completions", key, "{\"model\":\"fake-chat-a\"," + HELLO + "}", Map.of());
        assertThat(blocked.status()).as(blocked.raw()).isEqualTo(429);
        assertThat(blocked.header("x-should-retry")).isEqualTo("false");
        long seconds = Long.parseLong(blocked.header("Retry-After"));
        assertThat(seconds).isPositive().isLessThanOrEqualTo(86_400);
    }

    @Test
    void badInputTellsTheClientNotToRetry() {
        var refused = server.post("/v1/jobs", ADMIN, "{\"prompt\":\"\"}");
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.header("x-should-retry")).isEqualTo("false");
    }

    @Test
    void aChatThatCalledNothingBecauseTheBreakerIsOpenIsA503WorthRetryingAfterTheCooldown() {
        try (TestServer fragile = TestServer.start(Map.of("IDEM_BREAKER_FAILURE_THRESHOLD", "1"))) {
            String body = "{\"model\":\"fake-chat-a\",\"simulate\":{\"fake-chat-a\":\"http_503\"}," + HELLO + "}";
            assertThat(fragile.send("POST", "/v1/chat/completions", ADMIN, body, Map.of())
                            .status())
                    .isEqualTo(502);
            var closed = fragile.send(
                    "POST", "/v1/chat/completions", ADMIN, "{\"model\":\"fake-chat-a\"," + HELLO + "}", Map.of());
            assertThat(closed.status()).as(closed.raw()).isEqualTo(503);
            assertThat(closed.header("x-should-retry")).isEqualTo("true");
            long millis = Long.parseLong(closed.header("retry-after-ms"));
            assertThat(millis)
                    .as("the breaker's remaining cooldown")
                    .isPositive()
                    .isLessThanOrEqualTo(60_000);
            assertThat(Long.parseLong(closed.header("Retry-After"))).isEqualTo((millis + 999) / 1000);
        }
    }
}
