package io.idem.server.chat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.NodeScripts;
import io.idem.server.TestServer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The official {@code openai} npm client, unmodified, calls Idem plain and streaming, and lists its models
 * ({@code src/test/node}; {@code .ci/run} installs it with {@code npm ci}). Skipped only when there
 * is no {@code node} on the PATH.
 */
class OpenAiNodeClientTest {
    @Test
    void theOfficialClientCallsIdemPlainAndStreamingUnmodified() throws Exception {
        NodeScripts.assumeInstalled();
        try (TestServer server = TestServer.start()) {
            JsonNode seen = NodeScripts.run("openai-client.mjs", server, Map.of(), 120);

            assertThat(seen.at("/plain/content").asText()).isEqualTo("Hello from fake-chat-a. You said: hi there");
            assertThat(seen.at("/plain/model").asText()).isEqualTo("fake-chat-a");
            assertThat(seen.at("/plain/usage/total_tokens").asInt()).isEqualTo(9);

            assertThat(seen.at("/stream/text").asText()).isEqualTo("Hello from fake-chat-b. You said: hi there");
            assertThat(seen.at("/stream/served").asText()).isEqualTo("fake-chat-b");
            assertThat(seen.at("/stream/header").asText()).isEqualTo("fake-chat-b");
            assertThat(seen.at("/stream/usage/completion_tokens").asInt()).isEqualTo(7);

            assertThat(seen.at("/allFailed/raised").asBoolean()).isTrue();
            assertThat(seen.at("/allFailed/status").asInt()).isEqualTo(502);
            assertThat(seen.at("/allFailed/code").asText()).isEqualTo("all_models_failed");

            assertThat(seen.at("/broken/raised").asBoolean())
                    .as(seen.toString())
                    .isTrue();
            assertThat(seen.at("/broken/seen").asText()).isEqualTo("Hello from");

            assertThat(seen.at("/models/ids").toString())
                    .contains("\"fake-chat-a\"", "\"static\"", "\"fake-image-v1\"");
            assertThat(seen.at("/models/one/object").asText()).isEqualTo("model");
            assertThat(seen.at("/models/one/owned_by").asText()).isEqualTo("backup");
            assertThat(seen.at("/models/unknown/raised").asBoolean()).isTrue();
            assertThat(seen.at("/models/unknown/status").asInt()).isEqualTo(404);
            assertThat(seen.at("/models/unknown/code").asText()).isEqualTo("model_not_found");
            assertThat(seen.at("/tools/plain/finish").asText()).isEqualTo("tool_calls");
            assertThat(seen.at("/tools/plain/name").asText()).isEqualTo("get_weather");
            assertThat(seen.at("/tools/plain/arguments").asText()).isEqualTo("{\"text\":\"hi there\"}");
            assertThat(seen.at("/tools/stream/finish").asText()).isEqualTo("tool_calls");
            assertThat(seen.at("/tools/stream/name").asText()).isEqualTo("get_weather");
            assertThat(seen.at("/tools/stream/arguments").asText()).isEqualTo("{\"text\":\"hi there\"}");
            assertThat(seen.at("/tools/answered").asText())
                    .isEqualTo("Hello from fake-chat-a. You said: 22C and sunny");
        }
    }
}
