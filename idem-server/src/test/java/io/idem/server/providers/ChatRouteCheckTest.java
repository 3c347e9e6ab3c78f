package io.idem.server.providers;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /v1/route/check} with a chat body, over real HTTP: the resolved chain in order, each
 * model's gate state and share of the deadline, the key's defaults and budget; nothing is called.
 */
class ChatRouteCheckTest {
    private static final String HELLO = "\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]";
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(Map.of("IDEM_BREAKER_FAILURE_THRESHOLD", "1"));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static JsonNode check(String key, String body) {
        var reply = server.post("/v1/route/check", key, body);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
        return reply.body();
    }

    private static List<String> models(JsonNode check) {
        List<String> models = new ArrayList<>();
        check.get("chain").forEach(e -> models.add(e.get("model").asText()));
        return models;
    }

    private static String keyWith(String owner, String attributes) {
        String secret = server.newKey(owner, "client");
        String id = server.get("/v1/admin/keys", TestServer.ADMIN_KEY).body().get("data").findValues("id").stream()
                .map(JsonNode::asText)
                .reduce((a, b) -> b)
                .orElseThrow();
        var patched = server.send("PATCH", "/v1/admin/keys/" + id, TestServer.ADMIN_KEY, attributes, Map.of());
        assertThat(patched.status()).as(patched.raw()).isEqualTo(200);
        return secret;
    }

    @Test
    void theChainComesInOrderWithEachModelsShareOfTheDeadline() {
        JsonNode check = check(TestServer.ADMIN_KEY, """
                {"model": "fake-chat-b", "fallback_models": ["static", "fake-chat-a"],
                 "redundancy": {"timeout_ms": 50000, "deadline_ms": 60000}, %s}""".formatted(HELLO));
        assertThat(check.get("kind").asText()).isEqualTo("chat");
        assertThat(models(check)).containsExactly("fake-chat-b", "static", "fake-chat-a");
        assertThat(check.get("deadline_ms").asLong()).isEqualTo(60_000);
        assertThat(check.get("requested_model").asText()).isEqualTo("fake-chat-b");
        JsonNode first = check.at("/chain/0");
        assertThat(first.get("provider").asText()).isEqualTo("backup");
        assertThat(first.get("eligible").asBoolean()).isTrue();
        assertThat(first.get("breaker").asText()).isEqualTo("closed");
        assertThat(first.get("starts_by_ms").asLong()).isZero();
        assertThat(first.get("effective_timeout_ms").asLong()).isEqualTo(50_000);
        assertThat(check.at("/chain/1/starts_by_ms").asLong()).isEqualTo(50_000);
        assertThat(check.at("/chain/1/effective_timeout_ms").asLong()).isEqualTo(10_000);
        assertThat(check.at("/chain/2/effective_timeout_ms").asLong()).isZero();
        assertThat(check.at("/chain/2/reasons/0").asText()).isEqualTo("deadline_spent");
        assertThat(check.at("/chain/2/eligible").asBoolean()).isFalse();
        assertThat(check.get("routable").asBoolean()).isTrue();
        assertThat(check.at("/key/budget_exceeded").asBoolean()).isFalse();
    }

    @Test
    void aBodyWithoutAModelUsesTheKeysDefaults() {
        String key = keyWith("defaults", """
                {"failover_defaults": {"models": ["fake-chat-b", "static"], "first_token_timeout_ms": 3000,
                                       "on": ["timeout"]}}""");
        JsonNode check = check(key, "{" + HELLO + "}");
        assertThat(models(check)).containsExactly("fake-chat-b", "static");
        assertThat(check.at("/chain/0/first_token_timeout_ms").asLong()).isEqualTo(3000);
        assertThat(check.get("on").toString()).isEqualTo("[\"timeout\"]");
    }

    @Test
    void anOpenBreakerMakesItsModelIneligibleAndNothingIsCalled() {
        var failed = server.post(
                "/v1/chat/completions",
                TestServer.ADMIN_KEY,
                "{\"model\": \"fake-chat-a\", \"simulate\": {\"fake-chat-a\": \"http_503\"}, " + HELLO + "}");
        assertThat(failed.status()).isEqualTo(502);
        server.awaitChatAudit();
        long attempts = server.get("/v1/chat/attempts?limit=100", TestServer.ADMIN_KEY)
                .body()
                .get("data")
                .size();
        JsonNode check = check(TestServer.ADMIN_KEY, "{\"models\": [\"fake-chat-a\", \"static\"], " + HELLO + "}");
        assertThat(check.at("/chain/0/eligible").asBoolean()).isFalse();
        assertThat(check.at("/chain/0/reasons/0").asText()).isEqualTo("breaker_open");
        assertThat(check.at("/chain/1/eligible").asBoolean()).isTrue();
        assertThat(check.get("routable").asBoolean()).isTrue();
        server.awaitChatAudit();
        assertThat(server.get("/v1/chat/attempts?limit=100", TestServer.ADMIN_KEY)
                        .body()
                        .get("data")
                        .size())
                .as("the check called no model")
                .isEqualTo(attempts);
    }

    @Test
    void aSpentKeyBudgetMakesTheCallUnroutable() {
        String key = server.newKey("spender", "client");
        var call = server.post("/v1/chat/completions", key, "{\"model\": \"fake-chat-b\", " + HELLO + "}");
        assertThat(call.status()).as(call.raw()).isEqualTo(200);
        server.awaitChatAudit();
        String id = server.get("/v1/admin/keys", TestServer.ADMIN_KEY).body().get("data").findValues("id").stream()
                .map(JsonNode::asText)
                .reduce((a, b) -> b)
                .orElseThrow();
        server.send(
                "PATCH", "/v1/admin/keys/" + id, TestServer.ADMIN_KEY, "{\"daily_budget_usd\": 0.000001}", Map.of());
        JsonNode check = check(key, "{\"model\": \"fake-chat-b\", " + HELLO + "}");
        assertThat(check.at("/key/budget_exceeded").asBoolean()).isTrue();
        assertThat(check.at("/key/message").asText()).contains("daily budget");
        assertThat(check.get("routable").asBoolean()).isFalse();
    }

    @Test
    void aBadChatBodyIsA400InTheErrorShape() {
        var unknown = server.post("/v1/route/check", TestServer.ADMIN_KEY, "{\"model\": \"nope\", " + HELLO + "}");
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.body().at("/error/code").asText()).isEqualTo("model_not_found");
        var empty =
                server.post("/v1/route/check", TestServer.ADMIN_KEY, "{\"model\": \"fake-chat-a\", \"messages\": []}");
        assertThat(empty.status()).isEqualTo(400);
        assertThat(empty.body().at("/error/code").asText()).isEqualTo("invalid_messages");
        var job = server.post("/v1/route/check", TestServer.ADMIN_KEY, "{\"prompt\": \"a job still checks\"}");
        assertThat(job.status()).isEqualTo(200);
        assertThat(job.body().get("candidates").size()).isEqualTo(2);
    }
}
