package io.idem.server.webhooks;

import static io.idem.server.webhooks.WebhookNodes.ADMIN;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.server.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad input on {@code /v1/webhooks} and a job's {@code callback_url}, on a node that keeps events
 * away from private addresses (the default): each is a 4xx in the error shape and stores nothing.
 * The secret is in the creating answer and in no other.
 */
class WebhookInputTest {
    private static TestServer node;

    @BeforeAll
    static void start() {
        node = TestServer.start(Map.of("IDEM_ROLE", "api"));
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    @ParameterizedTest(name = "{0} -> {1} {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"event_types\": [\"*\"]}                                                   | 400 | invalid_url",
                "{\"url\": 7, \"event_types\": [\"*\"]}                                       | 400 | invalid_url",
                "{\"url\": \"ftp://example.com/x\", \"event_types\": [\"*\"]}                 | 400 | invalid_url",
                "{\"url\": \"http://127.0.0.1:9/x\", \"event_types\": [\"*\"]}                | 400 | url_not_allowed",
                "{\"url\": \"http://169.254.169.254/\", \"event_types\": [\"*\"]}             | 400 | url_not_allowed",
                "{\"url\": \"http://localhost/\", \"event_types\": [\"*\"]}                   | 400 | url_not_allowed",
                "{\"url\": \"https://example.com/h\"}                                         | 400 | invalid_event_types",
                "{\"url\": \"https://example.com/h\", \"event_types\": []}                    | 400 | invalid_event_types",
                "{\"url\": \"https://example.com/h\", \"event_types\": \"job.failed\"}        | 400 | invalid_event_types",
                "{\"url\": \"https://example.com/h\", \"event_types\": [\"job.exploded\"]}    | 400 | invalid_event_types",
                "{\"url\": \"https://example.com/h\", \"event_types\": [3]}                   | 400 | invalid_event_types",
                "{\"url\": \"https://example.com/h\", \"event_types\": [\"*\"], \"secret\": \"mine\"} | 400 | unknown_field",
                "{\"url\": \"https://example.com/h\", \"event_types\": [\"*\"], \"description\": 5}  | 400 | invalid_description",
                "{\"url\": \"https://example.com/h\", \"event_types\": [\"*\"], \"description\": \"\"} | 400 | invalid_description",
                "[1]                                                                          | 400 | invalid_json",
                "{\"url\": \"https://example.com/h\", \"url\": \"https://example.com/i\"}     | 400 | duplicate_key"
            })
    void aBadSubscriptionIsRefusedAndStoresNothing(String body, int status, String code) {
        int before = count("webhook_subscriptions");
        var reply = node.post("/v1/webhooks", ADMIN, body);
        assertThat(reply.status()).as(reply.raw()).isEqualTo(status);
        assertThat(reply.body().at("/error/code").asText()).isEqualTo(code);
        assertThat(reply.body().at("/error/request_id").asText()).isNotBlank();
        assertThat(count("webhook_subscriptions")).isEqualTo(before);
    }

    @Test
    void aClientKeyMayNotSubscribeToGatewayEvents() {
        String client = node.newKey("input-client", "client");
        int before = count("webhook_subscriptions");
        for (String type : List.of("budget.warning", "breaker.opened", "api:model_failover", "tier.static_active")) {
            var reply = WebhookNodes.subscribe(node, client, "https://example.com/h", "job.failed", type);
            assertThat(reply.status()).as(type).isEqualTo(403);
            assertThat(reply.body().at("/error/code").asText()).isEqualTo("event_type_not_allowed");
        }
        assertThat(node.post("/v1/webhooks", null, "{}").status()).isEqualTo(401);
        assertThat(count("webhook_subscriptions")).isEqualTo(before);
    }

    @Test
    void theSecretIsShownOnceAndTheReadsAreStrict() {
        String client = node.newKey("input-reader", "client");
        var created = WebhookNodes.subscribe(node, client, "https://example.com/once", "job.succeeded");
        assertThat(created.status()).isEqualTo(201);
        String id = created.body().get("id").asText();
        String secret = created.body().get("secret").asText();
        assertThat(secret).matches("whsec_[A-Za-z0-9+/]{43}=");
        assertThat(created.body().get("scope").asText()).isEqualTo("owner");
        assertThat(created.header("Location")).isEqualTo("/v1/webhooks/" + id);
        for (String path : List.of("/v1/webhooks", "/v1/webhooks/" + id, "/v1/webhooks/" + id + "/deliveries")) {
            for (String key : List.of(client, ADMIN)) {
                var read = node.get(path, key);
                assertThat(read.status()).as(path).isEqualTo(200);
                assertThat(read.raw()).doesNotContain(secret).doesNotContain("secret");
            }
        }
        assertThat(node.get("/v1/webhooks/not-an-id", client)
                        .body()
                        .at("/error/code")
                        .asText())
                .isEqualTo("webhook_not_found");
        assertThat(node.get("/v1/webhooks/" + java.util.UUID.randomUUID() + "/deliveries", client)
                        .status())
                .isEqualTo(404);
        assertThat(node.get("/v1/webhooks/" + id + "/deliveries?limit=0", client)
                        .body()
                        .at("/error/code")
                        .asText())
                .isEqualTo("invalid_limit");
        assertThat(node.get("/v1/webhooks/" + id + "/deliveries?cursor=forged", client)
                        .body()
                        .at("/error/code")
                        .asText())
                .isEqualTo("invalid_cursor");
        assertThat(node.send("DELETE", "/v1/webhooks/" + id, client, null, Map.of())
                        .status())
                .isEqualTo(204);
    }

    @Test
    void anAdminsSubscriptionIsHiddenFromOtherKeysOfTheSameOwner() {
        var admins = WebhookNodes.subscribe(node, ADMIN, "https://example.com/everything", "*");
        assertThat(admins.body().get("scope").asText()).isEqualTo("all");
        String id = admins.body().get("id").asText();
        String sameOwner = node.newKey(admins.body().get("owner").asText(), "client");
        assertThat(node.get("/v1/webhooks", sameOwner).body().get("data")).isEmpty();
        assertThat(node.get("/v1/webhooks/" + id, sameOwner).status()).isEqualTo(404);
        assertThat(node.send("DELETE", "/v1/webhooks/" + id, sameOwner, null, Map.of())
                        .status())
                .isEqualTo(404);
        assertThat(node.send("DELETE", "/v1/webhooks/" + id, ADMIN, null, Map.of())
                        .status())
                .isEqualTo(204);
    }

    @Test
    void anOwnerHoldsAtMostAHundredSubscriptions() {
        String client = node.newKey("input-hoarder", "client");
        for (int i = 0; i < WebhooksApi.MAX_PER_OWNER; i++) {
            assertThat(WebhookNodes.subscribe(node, client, "https://example.com/h" + i, "job.failed")
                            .status())
                    .isEqualTo(201);
        }
        var refused = WebhookNodes.subscribe(node, client, "https://example.com/one-more", "job.failed");
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.body().at("/error/code").asText()).isEqualTo("webhook_limit_reached");
        var all = node.get("/v1/webhooks", client).body().get("data");
        assertThat(all).hasSize(WebhooksApi.MAX_PER_OWNER);
        all.forEach(s -> node.send("DELETE", "/v1/webhooks/" + s.get("id").asText(), client, null, Map.of()));
    }

    @ParameterizedTest(name = "callback_url {0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "\"ftp://example.com/cb\"     | invalid_callback_url",
                "42                           | invalid_callback_url",
                "\"\"                         | invalid_callback_url",
                "\"http://127.0.0.1:9000/cb\" | callback_url_not_allowed",
                "\"http://[::1]/cb\"          | callback_url_not_allowed"
            })
    void aBadCallbackUrlRefusesTheJob(String value, String code) {
        int jobs = count("jobs");
        var reply = node.post("/v1/jobs", ADMIN, "{\"prompt\": \"x\", \"callback_url\": " + value + "}");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(400);
        assertThat(reply.body().at("/error/code").asText()).isEqualTo(code);
        assertThat(count("jobs")).isEqualTo(jobs);
    }

    @Test
    void aJobShowsItsCallbackUrlAndItIsPartOfTheIdempotentRequest() {
        String body = "{\"prompt\": \"x\", \"callback_url\": \"https://example.com/cb\"}";
        var first = node.send("POST", "/v1/jobs", ADMIN, body, Map.of("Idempotency-Key", "callback-1"));
        assertThat(first.status()).isEqualTo(202);
        assertThat(first.body().get("callback_url").asText()).isEqualTo("https://example.com/cb");
        var replay = node.send("POST", "/v1/jobs", ADMIN, body, Map.of("Idempotency-Key", "callback-1"));
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.body().get("callback_url").asText()).isEqualTo("https://example.com/cb");
        var other = node.send(
                "POST",
                "/v1/jobs",
                ADMIN,
                body.replace("example.com/cb", "example.com/other"),
                Map.of("Idempotency-Key", "callback-1"));
        assertThat(other.status()).isEqualTo(409);
        assertThat(node.post("/v1/jobs", ADMIN, "{\"prompt\": \"y\"}")
                        .body()
                        .get("callback_url")
                        .isNull())
                .isTrue();
    }

    private static int count(String table) {
        return node.node().database().withConnection(c -> {
            try (var rs = c.createStatement().executeQuery("SELECT count(*) FROM " + table)) {
                rs.next();
                return rs.getInt(1);
            }
        });
    }
}
