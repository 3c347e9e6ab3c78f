package io.idem.server.chat;

import static io.idem.server.chat.ChatCalls.call;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.server.TestServer;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code Idempotency-Key} on chat: a finished answer replays, a running one holds its key. */
class ChatIdempotencyTest {
    private static TestServer server;
    private static final String ADMIN = TestServer.ADMIN_KEY;

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void theSameKeyAndBodyReplaysTheFinishedAnswerWithoutCallingAgain() {
        server.node().fakes().values().forEach(f -> f.resetLedger());
        String fields = "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"simulate\":{\"fake-chat-a\":\"http_503\"}";
        var first = call(server, ADMIN, fields, Map.of("Idempotency-Key", "chat-replay-1"));
        var again = call(server, ADMIN, fields, Map.of("Idempotency-Key", "chat-replay-1"));
        assertThat(first.status()).isEqualTo(200);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(again.raw()).isEqualTo(first.raw());
        assertThat(again.header("Idem-Served-Model")).isEqualTo("fake-chat-b");
        assertThat(again.header("Idem-Attempts")).isEqualTo(first.header("Idem-Attempts"));
        assertThat(server.node().fakes().get("backup").chatLedger())
                .as("billed once")
                .hasSize(1);

        var streamed = call(server, ADMIN, fields + ",\"stream\":true", Map.of("Idempotency-Key", "chat-replay-1"));
        assertThat(streamed.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(ChatCalls.text(ChatCalls.frames(streamed.raw())))
                .isEqualTo(first.body().at("/choices/0/message/content").asText());
        assertThat(streamed.raw()).endsWith("data: [DONE]\n\n");
        assertThat(server.node().fakes().get("backup").chatLedger()).hasSize(1);
    }

    @Test
    void aStreamedAnswerIsKeptAndReplayedToo() {
        var first = call(
                server, ADMIN, "\"model\":\"fake-chat-a\",\"stream\":true", Map.of("Idempotency-Key", "chat-stream-1"));
        var again = call(server, ADMIN, "\"model\":\"fake-chat-a\"", Map.of("Idempotency-Key", "chat-stream-1"));
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(again.body().at("/choices/0/message/content").asText())
                .isEqualTo(ChatCalls.text(ChatCalls.frames(first.raw())));
    }

    @Test
    void theSameKeyWithAnotherBodyIsA409() {
        call(server, ADMIN, "\"model\":\"fake-chat-a\"", Map.of("Idempotency-Key", "chat-reuse-1"));
        var other = call(server, ADMIN, "\"model\":\"fake-chat-b\"", Map.of("Idempotency-Key", "chat-reuse-1"));
        assertThat(other.status()).isEqualTo(409);
        assertThat(other.body().at("/error/code").asText()).isEqualTo("idempotency_key_reused");
    }

    @Test
    void aConcurrentDuplicateIsA409InUseWithRetryAfter() throws Exception {
        String fields = "\"model\":\"fake-chat-a\",\"simulate\":{\"fake-chat-a\":\"slow:1500\"}";
        CompletableFuture<TestServer.Reply> running = CompletableFuture.supplyAsync(
                () -> call(server, ADMIN, fields, Map.of("Idempotency-Key", "chat-busy-1")));
        Awaitility.await()
                .atMost(5, TimeUnit.SECONDS)
                .until(() -> ChatCalls.query(
                                server, "SELECT count(*) FROM chat_idempotency WHERE state = 'running'", Long.class)
                        > 0);
        var duplicate = call(server, ADMIN, fields, Map.of("Idempotency-Key", "chat-busy-1"));
        assertThat(duplicate.status()).as(duplicate.raw()).isEqualTo(409);
        assertThat(duplicate.body().at("/error/code").asText()).isEqualTo("idempotency_key_in_use");
        assertThat(Integer.parseInt(duplicate.header("Retry-After"))).isPositive();
        assertThat(running.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
        assertThat(call(server, ADMIN, fields, Map.of("Idempotency-Key", "chat-busy-1"))
                        .header("Idempotent-Replayed"))
                .isEqualTo("true");
    }

    @Test
    void aCallThatFailsFreesItsKeyForARetry() {
        var failed = call(
                server,
                ADMIN,
                "\"model\":\"fake-chat-a\",\"simulate\":{\"fake-chat-a\":\"http_503\"}",
                Map.of("Idempotency-Key", "chat-free-1"));
        assertThat(failed.status()).isEqualTo(502);
        var retried = call(
                server,
                ADMIN,
                "\"model\":\"fake-chat-a\",\"simulate\":{\"fake-chat-a\":\"http_503\"}",
                Map.of("Idempotency-Key", "chat-free-1"));
        assertThat(retried.header("Idempotent-Replayed")).isNull();
    }
}
