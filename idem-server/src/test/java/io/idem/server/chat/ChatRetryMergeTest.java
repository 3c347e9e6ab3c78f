package io.idem.server.chat;

import static io.idem.server.chat.ChatCalls.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.server.Race;
import io.idem.server.TestServer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Chat requests without {@code Idempotency-Key}: an SDK's retry of the same body from the same key
 * gets the first call's answer (served or failed, with its status and request id), waits while it
 * runs, and never calls a model again.
 */
class ChatRetryMergeTest {
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, String> attempt(int retryCount) {
        return Map.of("x-stainless-retry-count", Integer.toString(retryCount), "x-stainless-timeout", "600");
    }

    /** How many chat calls the key's owner made, and how many requests went out to vendors. */
    private static long calls(String owner) {
        ChatCalls.awaitAudit(server);
        return ChatCalls.query(
                server, "SELECT count(DISTINCT call_id) FROM chat_attempts WHERE owner = ?", Long.class, owner);
    }

    private static long vendorCalls(String owner) {
        return ChatCalls.query(
                server,
                "SELECT count(*) FROM chat_attempts WHERE owner = ? AND outcome <> 'skipped'",
                Long.class,
                owner);
    }

    @Test
    void aRetryAfterTheCallFinishedReplaysItsAnswer() {
        String key = server.newKey("chat-merge-served", "client");
        var first = call(server, key, "\"model\":\"fake-chat-a\"", attempt(0));
        var retry = call(server, key, "\"model\":\"fake-chat-a\"", attempt(1));
        assertThat(first.status()).isEqualTo(200);
        assertThat(retry.status()).isEqualTo(200);
        assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(retry.raw()).isEqualTo(first.raw());
        assertThat(retry.header("X-Request-Id")).isEqualTo(first.header("X-Request-Id"));
        assertThat(calls("chat-merge-served")).isEqualTo(1);
    }

    @Test
    void aRetryAfterAFailureThatCalledModelsReplaysTheFailureWithItsStatus() {
        String key = server.newKey("chat-merge-failed", "client");
        String fields = "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"redundancy\":{\"retries\":0},"
                + "\"simulate\":{\"fake-chat-a\":\"http_503\",\"fake-chat-b\":\"http_503\"}";
        var first = call(server, key, fields, attempt(0));
        var retry = call(server, key, fields, attempt(1));
        assertThat(first.status()).isEqualTo(502);
        assertThat(retry.status()).isEqualTo(502);
        assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(retry.header("x-should-retry")).isEqualTo("false");
        assertThat(retry.body().at("/error/code").asText()).isEqualTo("all_models_failed");
        assertThat(retry.body().at("/error/request_id").asText()).isEqualTo(first.header("X-Request-Id"));
        assertThat(retry.header("X-Request-Id")).isEqualTo(first.header("X-Request-Id"));
        assertThat(calls("chat-merge-failed")).isEqualTo(1);
        assertThat(vendorCalls("chat-merge-failed")).isEqualTo(2);
    }

    @Test
    void aRetryWhileTheCallRunsIsToldToWaitAndThenGetsTheAnswer() throws Exception {
        String key = server.newKey("chat-merge-running", "client");
        String fields = "\"model\":\"fake-chat-a\",\"simulate\":{\"fake-chat-a\":\"slow:1500\"}";
        var running = CompletableFuture.supplyAsync(() -> call(server, key, fields, attempt(0)));
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(5))
                .until(() -> ChatCalls.query(
                                server, "SELECT count(*) FROM chat_idempotency WHERE state = 'running'", Long.class)
                        > 0);
        var busy = call(server, key, fields, attempt(1));
        assertThat(busy.status()).as(busy.raw()).isEqualTo(409);
        assertThat(busy.body().at("/error/code").asText()).isEqualTo("idempotency_key_in_use");
        assertThat(busy.header("x-should-retry")).isEqualTo("true");
        assertThat(Long.parseLong(busy.header("retry-after-ms"))).isBetween(1L, 5_000L);
        var first = running.get();
        var later = call(server, key, fields, attempt(2));
        assertThat(later.status()).isEqualTo(200);
        assertThat(later.raw()).isEqualTo(first.raw());
        assertThat(calls("chat-merge-running")).isEqualTo(1);
    }

    @Test
    void anotherBodyOrAFirstAttemptIsANewCall() {
        String key = server.newKey("chat-merge-new", "client");
        call(server, key, "\"model\":\"fake-chat-a\"", attempt(0));
        var other = call(server, key, "\"model\":\"fake-chat-b\"", attempt(1));
        var again = call(server, key, "\"model\":\"fake-chat-a\"", attempt(0));
        assertThat(other.header("Idempotent-Replayed")).isNull();
        assertThat(again.header("Idempotent-Replayed")).isNull();
        assertThat(calls("chat-merge-new")).isEqualTo(3);
    }

    @Test
    void concurrentIdenticalRetriesMakeOneCall() throws Exception {
        String key = server.newKey("chat-merge-race", "client");
        // the vendor takes half a second, so the racers meet the first call in flight (a 409) or
        // its answer (a replayed 200), however fast the first call would otherwise be
        String fields = "\"model\":\"fake-chat-a\",\"simulate\":{\"fake-chat-a\":\"slow:500\"}";
        List<Integer> statuses = Race.of(10, () -> call(server, key, fields, attempt(1))).stream()
                .map(TestServer.Reply::status)
                .toList();
        assertThat(statuses).containsOnly(200, 409);
        assertThat(calls("chat-merge-race")).isEqualTo(1);
        assertThat(vendorCalls("chat-merge-race")).isEqualTo(1);
    }

    @Test
    void aKeysDedupeWindowMergesPlainRepeats() {
        String key = ChatCalls.keyWith(server, "chat-dedupe", "{\"dedupe_window\": 60}");
        var first = call(server, key, "\"model\":\"fake-chat-a\"");
        var again = call(server, key, "\"model\":\"fake-chat-a\"");
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(again.raw()).isEqualTo(first.raw());
        assertThat(calls("chat-dedupe")).isEqualTo(1);
    }
}
