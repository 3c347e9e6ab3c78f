package io.idem.server.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.breaker.BreakerState;
import io.idem.server.TestServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The public status on a real node (PostgreSQL, the in-process fake vendors): breakers opened by
 * failing calls make the image lane degraded and then down, each since its breaker event; probes
 * that succeed bring it back. No answer names a provider, model, credential or price.
 */
class StatusTest {
    /** What the status must never say: the providers, their adapter, models, credentials and prices. */
    private static final String[] UNSAID = {
        "primary", "backup", "static", "fake", "openai", "FAKE_", "_KEY", "usd", "$", "price", "cost"
    };

    private TestServer server;

    @BeforeEach
    void start() {
        // Two failures open a breaker; no health check resets the count in between.
        server = TestServer.start(
                Map.of("IDEM_BREAKER_FAILURE_THRESHOLD", "2", "IDEM_HEALTH_CHECK_SECONDS", "3600"),
                "breaker: {cooldown_seconds: 2}\n");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private JsonNode status() {
        var reply = server.get("/v1/status", null);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        assertThat(reply.raw()).doesNotContain(UNSAID);
        return reply.body();
    }

    private JsonNode service(String lane, String kind) {
        for (JsonNode s : status().get("services")) {
            if (s.get("kind").asText().equals(kind) && s.get("lane").asText("").equals(lane)) {
                return s;
            }
        }
        throw new AssertionError("no service " + lane + " " + kind + " in " + status());
    }

    private void submit(String body) {
        var reply = server.post("/v1/jobs", TestServer.ADMIN_KEY, body);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(202);
    }

    private void awaitBreaker(String provider, BreakerState state) {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> server.node().breakers().snapshot(provider).state() == state);
    }

    /** When {@code provider} last had an event of {@code type}, as the event stream tells operators. */
    private String lastEvent(String type, String provider) {
        JsonNode events = server.get("/v1/events?type=" + type + "&provider=" + provider, TestServer.ADMIN_KEY)
                .body()
                .get("data");
        assertThat(events).as(type + " of " + provider).isNotEmpty();
        return events.get(0).get("at").asText();
    }

    @Test
    void breakersMakeALaneDegradedThenDownEachSinceItsEventAndProbesBringItBack() {
        JsonNode fine = status();
        assertThat(fine.get("status").asText()).isEqualTo("operational");
        assertThat(fine.get("services"))
                .extracting(
                        s -> s.get("lane").asText("chat") + "/" + s.get("kind").asText())
                .containsExactly("standard/image", "chat/chat");

        for (int i = 0; i < 2; i++) {
            submit("{\"prompt\": \"p\", \"simulate\": {\"primary\": \"http_503\"}}");
        }
        awaitBreaker("primary", BreakerState.OPEN);
        String primaryOpened = lastEvent("breaker.open", "primary");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> service("standard", "image").get("status").asText().equals("degraded"));
        assertThat(service("standard", "image").get("since").asText()).isEqualTo(primaryOpened);
        assertThat(service("", "chat").get("status").asText()).isEqualTo("degraded");

        // The backup fails too, on chat calls to its model (chat shares the job breakers and never waits).
        for (int i = 0; i < 2; i++) {
            var chat = server.post("/v1/chat/completions", TestServer.ADMIN_KEY, """
                    {"models": ["fake-chat-b"], "simulate": {"fake-chat-b": "http_503"},
                     "messages": [{"role": "user", "content": "hi"}]}""");
            assertThat(chat.status()).as(chat.raw()).isGreaterThanOrEqualTo(500);
        }
        awaitBreaker("backup", BreakerState.OPEN);
        String backupOpened = lastEvent("breaker.open", "backup");
        await().atMost(Duration.ofSeconds(5))
                .until(() -> service("standard", "image").get("status").asText().equals("down"));
        assertThat(service("standard", "image").get("since").asText()).isEqualTo(backupOpened);
        // chat still has its static tier
        assertThat(service("", "chat").get("status").asText()).isEqualTo("degraded");
        JsonNode partly = status();
        assertThat(partly.get("status").asText()).isEqualTo("degraded");
        assertThat(partly.get("since").asText()).isEqualTo(primaryOpened);

        // Jobs wait for the cooldown; once it is over the health checks are the probes that close both
        // breakers (no user's call is risked on a provider with a health check), and the jobs then run.
        submit("{\"prompt\": \"p\", \"provider_policy\": {\"primary\": \"primary\"}}");
        submit("{\"prompt\": \"p\", \"provider_policy\": {\"primary\": \"backup\"}}");
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            server.node().sentinel().checkAll();
            return server.node().breakers().snapshot("primary").state() == BreakerState.CLOSED
                    && server.node().breakers().snapshot("backup").state() == BreakerState.CLOSED;
        });
        awaitBreaker("primary", BreakerState.CLOSED);
        awaitBreaker("backup", BreakerState.CLOSED);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> status().get("status").asText().equals("operational"));
        String lastClosed = max(lastEvent("breaker.closed", "primary"), lastEvent("breaker.closed", "backup"));
        assertThat(service("standard", "image").get("since").asText()).isEqualTo(lastClosed);
        assertThat(status().get("since").asText()).isEqualTo(lastClosed);
    }

    private static String max(String a, String b) {
        return java.time.Instant.parse(a).isAfter(java.time.Instant.parse(b)) ? a : b;
    }

    @Test
    void thePageIsPlainHtmlWithoutScriptsAndNamesNoProvider() {
        var page = server.send("GET", "/status", null, null, Map.of());
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Content-Type")).startsWith("text/html");
        assertThat(page.header("Content-Security-Policy")).contains("default-src 'none'");
        assertThat(page.raw())
                .contains("Service status", "data-lane=\"standard\"", "data-kind=\"image\"", "operational")
                .doesNotContain("<script", "style=")
                .doesNotContain(UNSAID);
        for (int i = 0; i < 2; i++) {
            submit("{\"prompt\": \"p\", \"simulate\": {\"primary\": \"http_503\"}}");
        }
        awaitBreaker("primary", BreakerState.OPEN);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> server.send("GET", "/status", null, null, Map.of())
                        .raw()
                        .contains("data-kind=\"image\" data-status=\"degraded\""));
        assertThat(server.send("GET", "/status", null, null, Map.of()).raw())
                .contains("⚠ degraded", "Since")
                .doesNotContain(UNSAID);
    }
}
