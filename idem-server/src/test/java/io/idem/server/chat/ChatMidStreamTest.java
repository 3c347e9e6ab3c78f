package io.idem.server.chat;

import static io.idem.server.chat.ChatCalls.call;
import static io.idem.server.chat.ChatCalls.frames;
import static io.idem.server.chat.ChatCalls.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code redundancy.mid_stream: "continue"}: a stream cut after content goes on with the next model,
 * which continues the partial answer when it takes a prefill (the fake vendor does) and answers
 * afresh after an explicit restart marker when it does not (the static tier); every attempt audited
 * with its own billable flag. The default stays locked.
 */
class ChatMidStreamTest {
    private static final String ADMIN = TestServer.ADMIN_KEY;
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static List<JsonNode> switches(List<JsonNode> frames) {
        return frames.stream()
                .filter(f -> f.at("/idem/stream_switch").isObject())
                .toList();
    }

    @Test
    void aPrefillModelContinuesTheAnswerWhereTheCutModelStopped() {
        var reply = call(
                server,
                ADMIN,
                "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"stream\":true,"
                        + "\"redundancy\":{\"mid_stream\":\"continue\"},"
                        + "\"simulate\":{\"fake-chat-a\":\"stream_cut:3\"}",
                Map.of("Idempotency-Key", "mid-stream-continue-1"));
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.raw()).endsWith("data: [DONE]\n\n");
        List<JsonNode> frames = frames(reply.raw());
        assertThat(frames).noneSatisfy(f -> assertThat(f.has("error")).isTrue());
        assertThat(text(frames)).isEqualTo("Hello from fake-chat-a. You said: hi there");
        JsonNode marker = switches(frames).getFirst().at("/idem/stream_switch");
        assertThat(marker.get("from").asText()).isEqualTo("fake-chat-a");
        assertThat(marker.get("to").asText()).isEqualTo("fake-chat-b");
        assertThat(marker.get("restarted").asBoolean()).isFalse();
        assertThat(marker.get("reason").asText()).isEqualTo("connection_lost");
        JsonNode finish = frames.stream()
                .filter(f -> !f.path("choices").path(0).path("finish_reason").isNull()
                        && f.path("choices").path(0).has("finish_reason"))
                .reduce((a, b) -> b)
                .orElseThrow();
        assertThat(finish.get("model").asText()).isEqualTo("fake-chat-b");
        assertThat(finish.at("/idem/failover/attempts")).hasSize(2);
        assertThat(finish.at("/idem/failover/attempts/0/billable").asText()).isEqualTo("unknown");
        assertThat(finish.at("/idem/failover/attempts/1/outcome").asText()).isEqualTo("served");

        ChatCalls.awaitAudit(server);
        var replay = call(
                server,
                ADMIN,
                "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"stream\":false,"
                        + "\"redundancy\":{\"mid_stream\":\"continue\"},"
                        + "\"simulate\":{\"fake-chat-a\":\"stream_cut:3\"}",
                Map.of("Idempotency-Key", "mid-stream-continue-1"));
        assertThat(replay.body().at("/choices/0/message/content").asText())
                .isEqualTo("Hello from fake-chat-a. You said: hi there");
    }

    @Test
    void aModelWithoutPrefillRestartsAfterAnExplicitMarker() {
        var reply = call(
                server,
                ADMIN,
                "\"models\":[\"fake-chat-a\",\"static\"],\"stream\":true,"
                        + "\"redundancy\":{\"mid_stream\":\"continue\"},"
                        + "\"simulate\":{\"fake-chat-a\":\"stream_cut:2\"}");
        assertThat(reply.raw()).endsWith("data: [DONE]\n\n");
        List<JsonNode> frames = frames(reply.raw());
        int marker = frames.indexOf(switches(frames).getFirst());
        assertThat(frames.get(marker).at("/idem/stream_switch/restarted").asBoolean())
                .isTrue();
        assertThat(frames.get(marker).at("/choices/0/delta/role").asText()).isEqualTo("assistant");
        assertThat(text(frames.subList(0, marker))).isEqualTo("Hello from");
        assertThat(text(frames.subList(marker, frames.size()))).isNotBlank().doesNotStartWith(" fake-chat-a");
    }

    @Test
    void withoutTheOptInAStreamStaysLocked() {
        var locked = call(
                server,
                ADMIN,
                "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"stream\":true,"
                        + "\"simulate\":{\"fake-chat-a\":\"stream_cut:3\"}");
        assertThat(locked.raw()).doesNotContain("[DONE]").doesNotContain("stream_switch");
    }

    @Test
    void anUnknownModeIsRefused() {
        var reply = call(server, ADMIN, "\"model\":\"fake-chat-a\",\"redundancy\":{\"mid_stream\":\"splice\"}");
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.body().at("/error/param").asText()).isEqualTo("redundancy.mid_stream");
    }
}
