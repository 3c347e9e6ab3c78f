package io.idem.server.chat;

import static io.idem.server.chat.ChatCalls.call;
import static io.idem.server.chat.ChatCalls.frames;
import static io.idem.server.chat.ChatCalls.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.TestServer;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Streaming: invisible failover before the first token, lock-in after it, and the SSE shapes. */
class ChatStreamingTest {
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
    void aStreamIsOpenAisChunksEndingInDoneWithTheUsageChunkWhenAskedFor() {
        var reply = call(
                server, ADMIN, "\"model\":\"fake-chat-a\",\"stream\":true,\"stream_options\":{\"include_usage\":true}");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("Content-Type")).startsWith("text/event-stream");
        assertThat(reply.header("Idem-Served-Model")).isEqualTo("fake-chat-a");
        assertThat(reply.raw()).endsWith("data: [DONE]\n\n");
        List<JsonNode> frames = frames(reply.raw());
        assertThat(frames).allSatisfy(f -> assertThat(f.get("object").asText()).isEqualTo("chat.completion.chunk"));
        assertThat(frames.getFirst().at("/choices/0/delta/role").asText()).isEqualTo("assistant");
        assertThat(text(frames)).isEqualTo("Hello from fake-chat-a. You said: hi there");
        JsonNode usage = frames.getLast();
        assertThat(usage.get("choices")).isEmpty();
        assertThat(usage.at("/usage/completion_tokens").asInt()).isEqualTo(7);
        assertThat(frames.get(frames.size() - 2).at("/choices/0/finish_reason").asText())
                .isEqualTo("stop");
        assertThat(frames.subList(0, frames.size() - 1))
                .allSatisfy(f -> assertThat(f.get("usage").isNull()).isTrue());

        var plain = call(server, ADMIN, "\"model\":\"fake-chat-a\",\"stream\":true");
        assertThat(frames(plain.raw()))
                .noneSatisfy(f -> assertThat(f.has("usage")).isTrue());
    }

    @Test
    void aFailureBeforeTheFirstTokenFailsOverInvisibly() {
        var reply = call(
                server,
                ADMIN,
                "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"stream\":true,\"redundancy\":{\"retries\":0},"
                        + "\"simulate\":{\"fake-chat-a\":\"http_503\"}");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("Idem-Served-Model")).isEqualTo("fake-chat-b");
        assertThat(reply.header("Idem-Attempts"))
                .contains("outcome=unavailable")
                .contains("outcome=streaming");
        List<JsonNode> frames = frames(reply.raw());
        assertThat(frames).allSatisfy(f -> assertThat(f.get("model").asText()).isEqualTo("fake-chat-b"));
        assertThat(text(frames)).isEqualTo("Hello from fake-chat-b. You said: hi there");
        JsonNode finish = frames.getLast();
        assertThat(finish.at("/idem/failover/attempts"))
                .extracting(a -> a.get("outcome").asText())
                .containsExactly("unavailable", "served");
        assertThat(reply.raw()).endsWith("data: [DONE]\n\n");
    }

    @Test
    void aSilentFirstTokenTimesOutAndFailsOverBeforeAnythingReachesTheClient() {
        var reply = call(
                server,
                ADMIN,
                "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"stream\":true,"
                        + "\"simulate\":{\"fake-chat-a\":\"first_token_delay:5000\"},"
                        + "\"redundancy\":{\"first_token_timeout_ms\":700}");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("Idem-Served-Model")).isEqualTo("fake-chat-b");
        JsonNode first = frames(reply.raw()).getLast().at("/idem/failover/attempts/0");
        assertThat(first.get("outcome").asText()).isEqualTo("unconfirmed");
        assertThat(first.get("error_code").asText()).isEqualTo("first_token_timeout");
        assertThat(first.get("billable").asText()).isEqualTo("unknown");
        assertThat(text(frames(reply.raw()))).startsWith("Hello from fake-chat-b");
    }

    @Test
    void aStreamCutBeforeItsFirstTokenFailsOverToo() {
        var reply = call(
                server,
                ADMIN,
                "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"stream\":true,"
                        + "\"simulate\":{\"fake-chat-a\":\"stream_cut:0\"}");
        assertThat(reply.header("Idem-Served-Model")).isEqualTo("fake-chat-b");
        assertThat(reply.raw()).endsWith("data: [DONE]\n\n");
    }

    @Test
    void aFailureAfterTheFirstTokenIsAnErrorFrameNeverACleanEnd() {
        var reply = call(
                server,
                ADMIN,
                "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"stream\":true,"
                        + "\"simulate\":{\"fake-chat-a\":\"stream_cut:3\"}");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header("Idem-Served-Model")).isEqualTo("fake-chat-a");
        assertThat(reply.raw()).doesNotContain("[DONE]");
        List<JsonNode> frames = frames(reply.raw());
        assertThat(text(frames)).isEqualTo("Hello from fake-chat-a.");
        JsonNode error = frames.getLast().get("error");
        assertThat(error).isNotNull();
        assertThat(error.get("code").asText()).isEqualTo("stream_interrupted");
        assertThat(error.get("type").asText()).isEqualTo("server_error");
        assertThat(error.at("/idem/failover/attempts")).singleElement().satisfies(a -> {
            assertThat(a.get("model").asText()).isEqualTo("fake-chat-a");
            assertThat(a.get("outcome").asText()).isEqualTo("unconfirmed");
            assertThat(a.get("billable").asText()).isEqualTo("unknown");
        });
        assertThat(frames)
                .noneSatisfy(f -> assertThat(f.path("model").asText("")).isEqualTo("fake-chat-b"));
        ChatCalls.awaitAudit(server);
        assertThat(ChatCalls.query(
                        server,
                        "SELECT outcome || '/' || usage_estimated FROM chat_attempts ORDER BY id DESC LIMIT 1",
                        String.class))
                .isEqualTo("unconfirmed/true");
    }

    @Test
    void aStreamThatFinishedAndEndsWithoutDoneIsACompletedAnswer() {
        var reply = call(
                server,
                ADMIN,
                "\"model\":\"fake-chat-a\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                        + "\"simulate\":{\"fake-chat-a\":\"no_done\"}");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.raw()).endsWith("data: [DONE]\n\n").doesNotContain("\"error\"");
        List<JsonNode> frames = frames(reply.raw());
        assertThat(text(frames)).isEqualTo("Hello from fake-chat-a. You said: hi there");
        assertThat(frames.get(frames.size() - 2).at("/choices/0/finish_reason").asText())
                .isEqualTo("stop");
        assertThat(frames.getLast().at("/usage/completion_tokens").asInt()).isEqualTo(7);
        ChatCalls.awaitAudit(server);
        assertThat(ChatCalls.query(
                        server,
                        "SELECT outcome || '/' || billable || '/' || completion_tokens || '/' || usage_estimated"
                                + " FROM chat_attempts ORDER BY id DESC LIMIT 1",
                        String.class))
                .isEqualTo("served/yes/7/false");
        assertThat(frames.get(frames.size() - 2).at("/idem").has("usage_estimated"))
                .isFalse();
    }

    @Test
    void usageTheVendorDidNotReportIsLabelledAnEstimateInTheAnswerAndTheAudit() {
        var plain = call(server, ADMIN, "\"model\":\"fake-chat-a\",\"simulate\":{\"fake-chat-a\":\"no_usage\"}");
        assertThat(plain.status()).isEqualTo(200);
        assertThat(plain.body().at("/idem/usage_estimated").asBoolean()).isTrue();
        assertThat(plain.body().at("/usage/completion_tokens").asInt()).isEqualTo(7);
        var stream = call(
                server,
                ADMIN,
                "\"model\":\"fake-chat-a\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                        + "\"simulate\":{\"fake-chat-a\":\"no_usage\"}");
        List<JsonNode> frames = frames(stream.raw());
        assertThat(frames.get(frames.size() - 2).at("/idem/usage_estimated").asBoolean())
                .isTrue();
        ChatCalls.awaitAudit(server);
        assertThat(ChatCalls.query(
                        server,
                        "SELECT count(*) FROM (SELECT usage_estimated, outcome FROM chat_attempts"
                                + " ORDER BY id DESC LIMIT 2) t WHERE usage_estimated AND outcome = 'served'",
                        Long.class))
                .isEqualTo(2L);
        var counted = call(server, ADMIN, "\"model\":\"fake-chat-a\"");
        assertThat(counted.body().at("/idem").has("usage_estimated")).isFalse();
    }

    @Test
    void aStreamWhoseEveryModelFailsIsAPlainJsonErrorNotAStream() {
        var reply = call(
                server,
                ADMIN,
                "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"stream\":true,\"redundancy\":{\"retries\":0},"
                        + "\"simulate\":{\"fake-chat-a\":\"http_429\",\"fake-chat-b\":\"http_429\"}");
        assertThat(reply.status()).isEqualTo(429);
        assertThat(reply.header("Content-Type")).startsWith("application/json");
        assertThat(reply.body().at("/error/code").asText()).isEqualTo("all_models_failed");
    }

    @Test
    void theStaticTierStreamsItsAnswerMarkedAsAFallback() {
        var reply = call(
                server,
                ADMIN,
                "\"models\":[\"fake-chat-a\",\"static\"],\"stream\":true,"
                        + "\"simulate\":{\"fake-chat-a\":\"refuse\"}");
        assertThat(reply.header("Idem-Served-Model")).isEqualTo("static");
        JsonNode finish = frames(reply.raw()).getLast();
        assertThat(finish.at("/idem/is_fallback").asBoolean()).isTrue();
        assertThat(finish.at("/idem/degradation_notice").asText()).isNotBlank();
    }
}
