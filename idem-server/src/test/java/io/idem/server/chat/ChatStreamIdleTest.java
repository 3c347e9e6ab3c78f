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

/**
 * A stream that goes silent after its first token for longer than {@code stream_idle_timeout_ms}
 * is cut, as a broken stream is: locked, the client gets the error frame; with {@code mid_stream:
 * continue} the next model takes over. A long stream whose tokens keep coming is never cut, however
 * long it lasts in all.
 */
class ChatStreamIdleTest {
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

    @Test
    void aStreamStallingAfterItsFirstTokenIsCut() {
        long started = System.nanoTime();
        var reply = call(
                server,
                ADMIN,
                "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"stream\":true,"
                        + "\"redundancy\":{\"stream_idle_timeout_ms\":800},\"simulate\":{\"fake-chat-a\":\"stall:5000\"}");
        long tookMs = (System.nanoTime() - started) / 1_000_000;
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.raw()).doesNotContain("[DONE]");
        List<JsonNode> frames = frames(reply.raw());
        assertThat(text(frames)).isEqualTo("Hello");
        JsonNode error = frames.getLast().get("error");
        assertThat(error.get("code").asText()).isEqualTo("stream_interrupted");
        assertThat(error.at("/idem/failover/attempts")).singleElement().satisfies(a -> {
            assertThat(a.get("outcome").asText()).isEqualTo("unconfirmed");
            assertThat(a.get("error_code").asText()).isEqualTo("stream_idle_timeout");
            assertThat(a.get("reason").asText()).isEqualTo("connection_error");
            assertThat(a.get("billable").asText()).isEqualTo("unknown");
        });
        assertThat(tookMs).isLessThan(4000);
    }

    @Test
    void withMidStreamContinueTheNextModelTakesOverAStalledStream() {
        var reply = call(
                server,
                ADMIN,
                "\"models\":[\"fake-chat-a\",\"fake-chat-b\"],\"stream\":true,"
                        + "\"redundancy\":{\"stream_idle_timeout_ms\":800,\"mid_stream\":\"continue\"},"
                        + "\"simulate\":{\"fake-chat-a\":\"stall:5000\"}");
        assertThat(reply.raw()).endsWith("data: [DONE]\n\n");
        JsonNode marker = frames(reply.raw()).stream()
                .filter(f -> f.at("/idem/stream_switch").isObject())
                .findFirst()
                .orElseThrow()
                .at("/idem/stream_switch");
        assertThat(marker.get("to").asText()).isEqualTo("fake-chat-b");
        assertThat(marker.get("reason").asText()).isEqualTo("stream_idle_timeout");
    }

    @Test
    void aLongSteadyStreamIsNotCut() {
        long started = System.nanoTime();
        var reply = call(
                server,
                ADMIN,
                "\"model\":\"fake-chat-a\",\"stream\":true,"
                        + "\"redundancy\":{\"stream_idle_timeout_ms\":800},\"simulate\":{\"fake-chat-a\":\"drip:300\"}");
        long tookMs = (System.nanoTime() - started) / 1_000_000;
        assertThat(reply.raw()).as(reply.raw()).endsWith("data: [DONE]\n\n");
        assertThat(text(frames(reply.raw()))).isEqualTo("Hello from fake-chat-a. You said: hi there");
        assertThat(tookMs).as("the whole stream outlasts the idle timeout").isGreaterThan(1600);
    }
}
