package io.idem.server.chat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.idem.server.TestServer;
import io.idem.server.http.Json;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A field a model's adapter would have to drop is refused before any model is called ({@code 400
 * unsupported_parameter}), unless the caller sends {@code drop_params: true}; an OpenAI-compatible
 * vendor gets every field, unknown ones too. The Ollama stand-in answers {@code /api/chat} and
 * {@code /api/tags} as Ollama does.
 */
class ChatUnsupportedParameterTest {
    private static final List<String> CHATS = new CopyOnWriteArrayList<>();
    private static HttpServer ollama;
    private static TestServer server;

    @BeforeAll
    static void start() throws IOException {
        ollama = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        ollama.createContext("/api/tags", exchange -> answer(exchange, "{\"models\":[{\"name\":\"llama3.2\"}]}"));
        ollama.createContext("/api/chat", exchange -> {
            CHATS.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            answer(exchange, """
                    {"model":"llama3.2","message":{"role":"assistant","content":"Hello!"},"done":true,
                     "done_reason":"stop","prompt_eval_count":3,"eval_count":2}""");
        });
        ollama.start();
        server = TestServer.start(
                Map.of("PROVIDERS_JSON", """
                {"providers": {
                   "img": {"adapter": "fake", "chat_models": ["fake-chat-a"]},
                   "local": {"adapter": "ollama", "base_url": "http://127.0.0.1:%d", "chat_models": ["llama3.2"]}},
                 "lanes": {"standard": ["img"]}}""".formatted(ollama.getAddress().getPort())));
    }

    private static void answer(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @BeforeEach
    void forget() {
        CHATS.clear();
    }

    @AfterAll
    static void stop() {
        server.close();
        ollama.stop(0);
    }

    private static TestServer.Reply chat(String fields) {
        return server.post(
                "/v1/chat/completions",
                TestServer.ADMIN_KEY,
                "{" + fields + ", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}");
    }

    @Test
    void aFieldOllamaCannotHonourIsRefusedBeforeAnyModelIsCalled() {
        var reply = chat("\"model\": \"fake-chat-a\", \"fallback_models\": [\"llama3.2\"], \"logprobs\": true");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(400);
        assertThat(reply.body().at("/error/code").asText()).isEqualTo("unsupported_parameter");
        assertThat(reply.body().at("/error/param").asText()).isEqualTo("logprobs");
        assertThat(reply.body().at("/error/message").asText()).contains("llama3.2", "drop_params");
        assertThat(CHATS).isEmpty();

        var http = chat("\"model\": \"llama3.2\", \"messages_extra\": 1");
        assertThat(http.status()).isEqualTo(400);
        assertThat(http.body().at("/error/param").asText()).isEqualTo("messages_extra");
    }

    @Test
    void anImageOllamaCannotFetchIsRefusedNamingThePart() {
        var reply = server.post("/v1/chat/completions", TestServer.ADMIN_KEY, """
                {"model": "llama3.2", "messages": [{"role": "user", "content": [
                   {"type": "text", "text": "what is this"},
                   {"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}}]}]}""");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(400);
        assertThat(reply.body().at("/error/param").asText()).isEqualTo("messages[0].content[1].image_url");
    }

    @Test
    void withDropParamsTheModelIsCalledWithoutTheField() throws Exception {
        var reply = chat("\"model\": \"llama3.2\", \"logprobs\": true, \"top_logprobs\": 2, \"temperature\": 0.3,"
                + " \"drop_params\": true");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.body().at("/choices/0/message/content").asText()).isEqualTo("Hello!");
        assertThat(CHATS).hasSize(1);
        JsonNode body = Json.MAPPER.readTree(CHATS.get(0));
        assertThat(body.has("logprobs")).isFalse();
        assertThat(body.has("drop_params")).isFalse();
        assertThat(body.at("/options/temperature").asDouble()).isEqualTo(0.3);
    }

    @Test
    void defaultsOllamaKeepsAnywayAndNeutralFieldsPass() {
        var reply = chat("\"model\": \"llama3.2\", \"logprobs\": false, \"tool_choice\": \"auto\", \"user\": \"u-1\","
                + " \"parallel_tool_calls\": true, \"n\": 1");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
    }

    @Test
    void anOpenAiCompatibleVendorTakesEveryFieldUnknownOnesToo() {
        var reply = chat("\"model\": \"fake-chat-a\", \"logprobs\": true, \"some_new_openai_field\": {\"x\": 1}");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
    }
}
