package io.idem.server.chat;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.idem.core.breaker.BreakerState;
import io.idem.server.TestServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The failover trigger against real HTTP stand-ins and real PostgreSQL: the breaker counts real
 * calls only (Ollama's {@code /api/tags} answering while {@code /api/chat} fails still opens it), a
 * vendor that says it cannot serve us (quota, credentials) is closed after one call with a {@code
 * provider.unusable} event, a stream's latency is its time to the first token, and after the
 * cooldown a health check, not a user's request, decides whether the breaker closes.
 */
class BreakerTriggersTest {
    private static final String QUOTA_KEY = "sk-quota-secret-0123456789";
    private static final String AUTH_KEY = "sk-auth-secret-9876543210";

    private final AtomicBoolean tagsUp = new AtomicBoolean(true);
    private final AtomicBoolean chatUp = new AtomicBoolean(false);
    private final AtomicInteger ollamaChats = new AtomicInteger();
    private final AtomicInteger quotaChats = new AtomicInteger();
    private final AtomicInteger authChats = new AtomicInteger();
    private HttpServer vendors;
    private TestServer server;

    @BeforeEach
    void startVendors() throws IOException {
        vendors = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        vendors.createContext("/api/tags", exchange -> {
            exchange.getRequestBody().readAllBytes();
            if (tagsUp.get()) {
                answer(exchange, 200, "{\"models\":[{\"name\":\"llama3.2\"}]}");
            } else {
                answer(exchange, 503, "{\"error\":\"down\"}");
            }
        });
        vendors.createContext("/api/chat", this::ollamaChat);
        vendors.createContext("/quota/v1/models", exchange -> answer(exchange, 200, "{\"data\":[]}"));
        vendors.createContext("/quota/v1/chat/completions", exchange -> {
            exchange.getRequestBody().readAllBytes();
            quotaChats.incrementAndGet();
            answer(exchange, 429, """
                    {"error":{"message":"You exceeded your current quota, please check your plan and billing details.",
                     "type":"insufficient_quota","param":null,"code":"insufficient_quota"}}""");
        });
        vendors.createContext("/auth/v1/models", exchange -> answer(exchange, 200, "{\"data\":[]}"));
        vendors.createContext("/auth/v1/chat/completions", exchange -> {
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            exchange.getRequestBody().readAllBytes();
            authChats.incrementAndGet();
            answer(exchange, 401, """
                    {"error":{"message":"Incorrect API key provided: %s.","type":"invalid_request_error",
                     "param":null,"code":"invalid_api_key"}}""".formatted(authorization.substring(7)));
        });
        vendors.start();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        vendors.stop(0);
    }

    /** Ollama's chat: a 500 while it is down; else a plain answer, or a stream whose tokens come slowly. */
    private void ollamaChat(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        ollamaChats.incrementAndGet();
        if (!chatUp.get()) {
            answer(exchange, 500, "{\"error\":\"llama runner process has terminated\"}");
            return;
        }
        if (!body.contains("\"stream\":true")) {
            answer(exchange, 200, """
                    {"model":"llama3.2","message":{"role":"assistant","content":"Hello!"},"done":true,
                     "done_reason":"stop","prompt_eval_count":3,"eval_count":2}""");
            return;
        }
        exchange.getResponseHeaders().set("Content-Type", "application/x-ndjson");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            for (int i = 0; i < 4; i++) {
                line(out, "{\"message\":{\"role\":\"assistant\",\"content\":\"word" + i + " \"},\"done\":false}");
                sleep(Duration.ofMillis(150));
            }
            line(
                    out,
                    "{\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,"
                            + "\"done_reason\":\"stop\",\"prompt_eval_count\":3,\"eval_count\":4}");
        }
    }

    private static void line(OutputStream out, String json) throws IOException {
        out.write((json + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void start(String yaml) {
        int port = vendors.getAddress().getPort();
        server = TestServer.start(
                Map.of(
                        "IDEM_BREAKER_FAILURE_THRESHOLD",
                        "3",
                        "IDEM_HEALTH_CHECK_SECONDS",
                        "3600",
                        "QUOTA_KEY",
                        QUOTA_KEY,
                        "AUTH_KEY",
                        AUTH_KEY,
                        "PROVIDERS_JSON",
                        """
                        {"providers": {
                           "img": {"adapter": "fake", "chat_models": ["fake-chat-a"]},
                           "local": {"adapter": "ollama", "base_url": "http://127.0.0.1:%d",
                                     "chat_models": ["llama3.2"]},
                           "quota": {"adapter": "openai_chat", "base_url": "http://127.0.0.1:%d/quota/v1",
                                     "api_key_env": "QUOTA_KEY", "chat_models": ["gpt-quota"]},
                           "auth": {"adapter": "openai_chat", "base_url": "http://127.0.0.1:%d/auth/v1",
                                    "api_key_env": "AUTH_KEY", "chat_models": ["gpt-auth"]}},
                         "lanes": {"standard": ["img"]}}""".formatted(port, port, port)),
                yaml);
        checkHealth(); // the sentinel's first round, done before the test's calls
    }

    private void checkHealth() {
        server.node().chat().sentinel().orElseThrow().checkAll();
    }

    /** One call, one vendor request: no same-model retry, so each failure here is one real failure. */
    private TestServer.Reply chat(String model) {
        return ChatCalls.call(
                server, TestServer.ADMIN_KEY, "\"model\":\"" + model + "\", \"redundancy\": {\"retries\": 0}");
    }

    private BreakerState breaker(String provider) {
        return server.node().breakers().snapshot(provider).state();
    }

    private long events(String provider, String type) {
        return ChatCalls.query(
                server,
                "SELECT count(*) FROM provider_events WHERE provider = ? AND type = ?",
                Long.class,
                provider,
                type);
    }

    @Test
    void theHealthEndpointAnsweringWhileChatFailsStillOpensAfterThreeRealFailures() {
        start(null);
        for (int i = 0; i < 3; i++) {
            assertThat(breaker("local")).isEqualTo(BreakerState.CLOSED);
            var failed = chat("llama3.2");
            assertThat(failed.status()).as(failed.raw()).isGreaterThanOrEqualTo(500);
            checkHealth();
        }
        assertThat(breaker("local")).isEqualTo(BreakerState.OPEN);
        assertThat(server.node()
                        .chat()
                        .sentinel()
                        .orElseThrow()
                        .last("local")
                        .orElseThrow()
                        .answer()
                        .healthy())
                .as("the health check passed all along")
                .isTrue();
        int called = ollamaChats.get();

        var skipped = chat("llama3.2");
        assertThat(skipped.status()).as(skipped.raw()).isEqualTo(503);
        assertThat(ollamaChats.get()).as("an open breaker calls nothing").isEqualTo(called);
        assertThat(ChatCalls.query(
                        server,
                        "SELECT detail->>'reason' FROM provider_events WHERE provider = 'local' AND type = 'breaker.open'",
                        String.class))
                .startsWith("3 consecutive failures");
    }

    @Test
    void aQuotaAnswerClosesTheProviderAfterOneCallAndRaisesTheEvent() {
        start(null);
        for (int i = 0; i < 6; i++) {
            var refused = chat("gpt-quota");
            assertThat(refused.status()).as(refused.raw()).isNotEqualTo(200);
        }
        assertThat(quotaChats.get())
                .as("one vendor call, then the provider is skipped")
                .isEqualTo(1);
        assertThat(breaker("quota")).isEqualTo(BreakerState.OPEN);
        assertThat(server.node().breakers().snapshot("quota").openUntil().orElseThrow())
                .isAfter(java.time.Instant.now().plus(Duration.ofSeconds(290)));
        assertThat(events("quota", "provider.unusable")).isEqualTo(1);
        assertThat(ChatCalls.query(
                        server,
                        "SELECT detail->>'reason' FROM provider_events WHERE type = 'provider.unusable'",
                        String.class))
                .isEqualTo("insufficient_quota (HTTP 429)");
        assertThat(ChatCalls.query(server, "SELECT string_agg(detail::text, ' ') FROM provider_events", String.class))
                .doesNotContain(QUOTA_KEY);
    }

    @Test
    void refusedCredentialsCloseTheProviderAfterOneCallAndTheEventNeverHoldsTheKey() {
        start("breaker: {unusable_for_seconds: 120}\n");
        for (int i = 0; i < 3; i++) {
            chat("gpt-auth");
        }
        assertThat(authChats.get()).isEqualTo(1);
        assertThat(breaker("auth")).isEqualTo(BreakerState.OPEN);
        assertThat(server.node().breakers().snapshot("auth").openUntil().orElseThrow())
                .isBefore(java.time.Instant.now().plus(Duration.ofSeconds(121)));
        assertThat(ChatCalls.query(
                        server,
                        "SELECT detail->>'reason' FROM provider_events WHERE type = 'provider.unusable'",
                        String.class))
                .isEqualTo("invalid_api_key (HTTP 401)");
        assertThat(ChatCalls.query(server, "SELECT string_agg(detail::text, ' ') FROM provider_events", String.class))
                .doesNotContain(AUTH_KEY);
    }

    @Test
    void aLongStreamWithAFastFirstTokenDoesNotTripTheLatencyTrigger() {
        chatUp.set(true);
        start("breaker: {latency_threshold_ms: 300, latency_min_samples: 1}\n");
        for (int i = 0; i < 3; i++) {
            var streamed = ChatCalls.call(server, TestServer.ADMIN_KEY, "\"model\":\"llama3.2\",\"stream\":true");
            assertThat(streamed.status()).as(streamed.raw()).isEqualTo(200);
            assertThat(ChatCalls.text(ChatCalls.frames(streamed.raw()))).isEqualTo("word0 word1 word2 word3 ");
            sleep(Duration.ofMillis(1100)); // the p95 is looked at once a second
        }
        assertThat(breaker("local")).isEqualTo(BreakerState.CLOSED);
        assertThat(server.node().breakers().p95Millis("local").orElseThrow()).isLessThan(300);
    }

    @Test
    void afterTheCooldownAHealthCheckNotAUserRequestDecides() {
        start("breaker: {cooldown_seconds: 1, max_cooldown_seconds: 60}\n");
        for (int i = 0; i < 3; i++) {
            chat("llama3.2");
        }
        assertThat(breaker("local")).isEqualTo(BreakerState.OPEN);
        int called = ollamaChats.get();

        tagsUp.set(false);
        sleep(Duration.ofMillis(1100));
        assertThat(chat("llama3.2").status()).isEqualTo(503);
        assertThat(ollamaChats.get())
                .as("no user request probes a provider with a health check")
                .isEqualTo(called);
        checkHealth();
        assertThat(breaker("local")).as("a failing health check keeps it open").isEqualTo(BreakerState.OPEN);
        assertThat(chat("llama3.2").status()).isEqualTo(503);
        assertThat(ollamaChats.get()).isEqualTo(called);

        tagsUp.set(true);
        chatUp.set(true);
        sleep(Duration.ofMillis(2100)); // the reopen's longer cooldown
        assertThat(chat("llama3.2").status()).isEqualTo(503);
        assertThat(ollamaChats.get()).isEqualTo(called);
        checkHealth();
        assertThat(breaker("local")).as("a passing health check closes it").isEqualTo(BreakerState.CLOSED);
        assertThat(ollamaChats.get()).isEqualTo(called);

        var served = chat("llama3.2");
        assertThat(served.status()).as(served.raw()).isEqualTo(200);
        assertThat(ollamaChats.get()).isEqualTo(called + 1);
    }
}
