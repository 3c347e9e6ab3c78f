package io.idem.server.providers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.TestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code GET /v1/providers} shows every provider, chat-only ones too, with job and chat calls counted. */
class ProvidersViewTest {
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static JsonNode provider(String name) {
        for (JsonNode p :
                server.get("/v1/providers", TestServer.ADMIN_KEY).body().get("data")) {
            if (p.get("name").asText().equals(name)) {
                return p;
            }
        }
        throw new AssertionError("no provider " + name);
    }

    @Test
    void chatOnlyProvidersAreListedAfterTheJobProviders() {
        List<String> names = new ArrayList<>();
        server.get("/v1/providers", TestServer.ADMIN_KEY)
                .body()
                .get("data")
                .forEach(p -> names.add(p.get("name").asText()));
        assertThat(names).containsExactly("primary", "backup", "static");
        JsonNode staticTier = provider("static");
        assertThat(staticTier.get("chat_only").asBoolean()).isTrue();
        assertThat(staticTier.get("adapter").asText()).isEqualTo("static");
        assertThat(staticTier.get("breaker").get("state").asText()).isEqualTo("closed");
        assertThat(staticTier.has("health")).isTrue();
        assertThat(provider("primary").get("chat_only").asBoolean()).isFalse();
    }

    @Test
    void chatCallsCountInTheProvidersCallsAndLatency() {
        long before = provider("backup").get("today").get("calls").asLong();
        var reply = server.post("/v1/chat/completions", TestServer.ADMIN_KEY, """
                {"models": ["fake-chat-b"], "messages": [{"role": "user", "content": "count me"}]}""");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> provider("backup").get("today").get("calls").asLong() == before + 1);
        JsonNode recent = provider("backup").get("recent");
        assertThat(recent.get("calls").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(recent.get("p95_latency_ms").isNumber()).isTrue();
    }
}
