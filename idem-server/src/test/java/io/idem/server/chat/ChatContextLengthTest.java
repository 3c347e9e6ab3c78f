package io.idem.server.chat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.idem.server.TestServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A prompt refused as too long for the model's context window fails over ({@code on:
 * context_length}, on by default) to a model with a larger configured {@code context_window},
 * skipping those known to be too small and saying why. The Ollama stand-in refuses the prompt for
 * its small model in Ollama's words.
 */
class ChatContextLengthTest {
    private static HttpServer ollama;
    private static TestServer server;

    @BeforeAll
    static void start() throws IOException {
        ollama = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        ollama.createContext(
                "/api/tags", exchange -> answer(exchange, 200, "{\"models\":[{\"name\":\"llama-small\"}]}"));
        ollama.createContext("/api/chat", exchange -> {
            exchange.getRequestBody().readAllBytes();
            answer(exchange, 400, "{\"error\":\"the input length exceeds the context length\"}");
        });
        ollama.start();
        server = TestServer.start(
                Map.of("PROVIDERS_JSON", """
                {"providers": {
                   "p": {"adapter": "fake", "chat_models": {
                          "small": {"model": "small", "context_window": 8192},
                          "tiny": {"model": "tiny", "context_window": 4096}}},
                   "q": {"adapter": "fake", "chat_models": {"large": {"model": "large", "context_window": 131072}}},
                   "local": {"adapter": "ollama", "base_url": "http://127.0.0.1:%d",
                             "chat_models": {"llama-small": {"model": "llama-small", "context_window": 2048}}}},
                 "lanes": {"standard": ["p"]}}""".formatted(ollama.getAddress().getPort())));
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @AfterAll
    static void stop() {
        server.close();
        ollama.stop(0);
    }

    @Test
    void aPromptTooLongFailsOverToTheLargerModelAndSkipsTheTooSmallOne() {
        var reply = ChatCalls.call(
                server,
                TestServer.ADMIN_KEY,
                "\"models\":[\"small\",\"tiny\",\"large\"],\"simulate\":{\"small\":\"context_length\"}");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.body().at("/idem/served_model").asText()).isEqualTo("large");
        JsonNode attempts = reply.body().at("/idem/failover/attempts");
        assertThat(attempts).hasSize(3);
        assertThat(attempts.get(0).path("outcome").asText()).isEqualTo("rejected");
        assertThat(attempts.get(0).path("error_code").asText()).isEqualTo("context_length_exceeded");
        assertThat(attempts.get(0).path("reason").asText()).isEqualTo("context_length");
        assertThat(attempts.get(0).path("billable").asText()).isEqualTo("no");
        assertThat(attempts.get(1).path("model").asText()).isEqualTo("tiny");
        assertThat(attempts.get(1).path("outcome").asText()).isEqualTo("skipped");
        assertThat(attempts.get(1).path("error_code").asText()).isEqualTo("context_too_small");
        assertThat(attempts.get(1).path("message").asText())
                .contains("context_window of 4096")
                .contains("not larger than the 8192 of small");
        assertThat(attempts.get(2).path("outcome").asText()).isEqualTo("served");
    }

    @Test
    void withNoLargerModelLeftTheClientGetsTheVendorsRefusal() {
        var reply = ChatCalls.call(
                server,
                TestServer.ADMIN_KEY,
                "\"models\":[\"small\",\"tiny\"],\"simulate\":{\"small\":\"context_length\"}");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(400);
        assertThat(reply.body().at("/error/code").asText()).isEqualTo("context_length_exceeded");
    }

    @Test
    void withoutContextLengthInOnTheRefusalIsPassedOnAtOnce() {
        var reply = ChatCalls.call(
                server,
                TestServer.ADMIN_KEY,
                "\"models\":[\"small\",\"large\"],\"redundancy\":{\"on\":[\"server_error\"]},"
                        + "\"simulate\":{\"small\":\"context_length\"}");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(400);
        assertThat(reply.body().at("/error/code").asText()).isEqualTo("context_length_exceeded");
        ChatCalls.awaitAudit(server);
        assertThat(ChatCalls.query(
                        server,
                        "SELECT count(*) FROM chat_attempts WHERE call_id = "
                                + "(SELECT call_id FROM chat_attempts ORDER BY id DESC LIMIT 1)",
                        Long.class))
                .isEqualTo(1L);
    }

    @Test
    void ollamasContextErrorFailsOverToo() {
        var reply = ChatCalls.call(server, TestServer.ADMIN_KEY, "\"models\":[\"llama-small\",\"large\"]");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.body().at("/idem/served_model").asText()).isEqualTo("large");
        assertThat(reply.body().at("/idem/failover/attempts/0/reason").asText()).isEqualTo("context_length");
    }

    @Test
    void theRouteCheckShowsEachEntrysSettings() {
        var check = server.post(
                "/v1/route/check",
                TestServer.ADMIN_KEY,
                "{\"models\":[\"small\",{\"model\":\"large\",\"retries\":3,\"stream_idle_timeout_ms\":5000}],"
                        + ChatCalls.HELLO + "}");
        assertThat(check.status()).as(check.raw()).isEqualTo(200);
        assertThat(check.body().at("/on").toString()).contains("\"context_length\"");
        JsonNode small = check.body().at("/chain/0");
        assertThat(small.path("context_window").asLong()).isEqualTo(8192);
        assertThat(small.path("retries").asInt())
                .as("a model with a fallback behind it")
                .isZero();
        assertThat(small.path("stream_idle_timeout_ms").asLong()).isEqualTo(30_000);
        assertThat(small.path("first_token_timeout_ms").asLong()).isEqualTo(12_000);
        JsonNode large = check.body().at("/chain/1");
        assertThat(large.path("retries").asInt()).isEqualTo(3);
        assertThat(large.path("stream_idle_timeout_ms").asLong()).isEqualTo(5_000);
    }
}
