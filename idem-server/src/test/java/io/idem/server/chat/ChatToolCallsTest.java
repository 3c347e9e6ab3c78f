package io.idem.server.chat;

import static io.idem.server.chat.ChatCalls.call;
import static io.idem.server.chat.ChatCalls.frames;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Tool calls through Idem against the fake vendor's {@code tool_call:NAME}: plain, streamed, replayed, answered. */
class ChatToolCallsTest {
    private static final String ADMIN = TestServer.ADMIN_KEY;
    private static final String TOOLS = "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\","
            + "\"parameters\":{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}}}],"
            + "\"tool_choice\":\"auto\",\"model\":\"fake-chat-a\","
            + "\"simulate\":{\"fake-chat-a\":\"tool_call:get_weather\"}";
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
    void aPlainAnswerCarriesTheVendorsToolCallsFingerprintAndUsageDetails() {
        var reply = call(server, ADMIN, TOOLS);
        assertThat(reply.status()).isEqualTo(200);
        JsonNode choice = reply.body().at("/choices/0");
        assertThat(choice.get("finish_reason").asText()).isEqualTo("tool_calls");
        assertThat(choice.at("/message/content").isNull()).isTrue();
        JsonNode tool = choice.at("/message/tool_calls/0");
        assertThat(tool.get("id").asText()).startsWith("call_");
        assertThat(tool.get("type").asText()).isEqualTo("function");
        assertThat(tool.at("/function/name").asText()).isEqualTo("get_weather");
        assertThat(tool.at("/function/arguments").asText()).isEqualTo("{\"text\":\"hi there\"}");
        assertThat(reply.body().get("system_fingerprint").asText()).isEqualTo("fp_fake");
        assertThat(reply.body().at("/usage/prompt_tokens_details/cached_tokens").isNumber())
                .isTrue();
        assertThat(reply.body()
                        .at("/usage/completion_tokens_details/reasoning_tokens")
                        .isNumber())
                .isTrue();
    }

    @Test
    void aStreamCarriesToolCallDeltasAndItsReplayTheMergedCall() {
        String fields = TOOLS + ",\"stream\":true";
        var reply = call(server, ADMIN, fields, Map.of("Idempotency-Key", "tool-stream-1"));
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.raw()).endsWith("data: [DONE]\n\n");
        List<JsonNode> frames = frames(reply.raw());
        List<JsonNode> deltas = frames.stream()
                .map(f -> f.at("/choices/0/delta/tool_calls/0"))
                .filter(JsonNode::isObject)
                .toList();
        assertThat(deltas.getFirst().get("id").asText()).startsWith("call_");
        assertThat(deltas.getFirst().at("/function/name").asText()).isEqualTo("get_weather");
        StringBuilder arguments = new StringBuilder();
        deltas.forEach(d -> arguments.append(d.at("/function/arguments").asText("")));
        assertThat(arguments).hasToString("{\"text\":\"hi there\"}");
        assertThat(frames.getLast().at("/choices/0/finish_reason").asText()).isEqualTo("tool_calls");

        var replay = call(server, ADMIN, TOOLS, Map.of("Idempotency-Key", "tool-stream-1"));
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        JsonNode tool = replay.body().at("/choices/0/message/tool_calls/0");
        assertThat(tool.get("id").asText())
                .isEqualTo(deltas.getFirst().get("id").asText());
        assertThat(tool.at("/function/name").asText()).isEqualTo("get_weather");
        assertThat(tool.at("/function/arguments").asText()).isEqualTo("{\"text\":\"hi there\"}");
        assertThat(replay.body().at("/choices/0/message/content").isNull()).isTrue();

        var streamedReplay = call(server, ADMIN, fields, Map.of("Idempotency-Key", "tool-stream-1"));
        assertThat(streamedReplay.header("Idempotent-Replayed")).isEqualTo("true");
        JsonNode replayed = frames(streamedReplay.raw()).stream()
                .map(f -> f.at("/choices/0/delta/tool_calls/0"))
                .filter(JsonNode::isObject)
                .findFirst()
                .orElseThrow();
        assertThat(replayed.get("index").asInt()).isZero();
        assertThat(replayed.at("/function/arguments").asText()).isEqualTo("{\"text\":\"hi there\"}");
    }

    @Test
    void theToolsResultInTheHistoryReachesTheVendor() {
        String body = "{\"model\":\"fake-chat-a\",\"messages\":["
                + "{\"role\":\"user\",\"content\":\"weather?\"},"
                + "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_9\",\"type\":\"function\","
                + "\"function\":{\"name\":\"get_weather\",\"arguments\":\"{}\"}}]},"
                + "{\"role\":\"tool\",\"tool_call_id\":\"call_9\",\"content\":\"22C and sunny\"}]}";
        var reply = server.send("POST", ChatCalls.PATH, ADMIN, body, Map.of());
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.body().at("/choices/0/message/content").asText())
                .isEqualTo("Hello from fake-chat-a. You said: 22C and sunny");
        assertThat(reply.body().at("/choices/0/message/tool_calls").isMissingNode())
                .isTrue();
    }
}
