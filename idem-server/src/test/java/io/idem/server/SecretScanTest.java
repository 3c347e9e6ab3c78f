package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.webhooks.WebhookReceiver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * No secret leaves (DESIGN §1 promise 7), checked end to end on a real node: every credential gets
 * a distinctive sentinel value, every adapter is driven into 401, 403 and 400 answers by vendors
 * that quote back the {@code Authorization} header and the key, and then the log output, every
 * HTTP answer (body and headers) and every text-bearing column of every table are searched for
 * every sentinel. API keys and idempotency keys are stored only as hashes; this proves it. A webhook
 * subscription's secret, quoted back by a receiver that refuses every delivery, reaches no log, no
 * later answer and no column (it is stored sealed); neither does a key's callback secret.
 */
class SecretScanTest {
    private static final Map<String, String> KEYS = Map.of(
            "SCAN_OPENAI_KEY", "sentinelOpenAiImagesKey4d3c2b1a",
            "SCAN_FAL_KEY", "sentinelFalKey7e6f5a4b3c2d",
            "SCAN_REPLICATE_KEY", "sentinelReplicateToken1a2b3c4d",
            "SCAN_RUNWARE_KEY", "sentinelRunwareKey9a8b7c6d5e",
            "SCAN_CHAT_KEY", "sentinelOpenAiChatKey2f3e4d5c",
            "SCAN_OLLAMA_KEY", "sentinelOllamaProxyKey6b5a4c3d");
    private static final String SERVER_SECRET = "sentinelServerSecret9f8e7d6c5b4a";
    private static final String BOOTSTRAP_KEY = "sentinelBootstrapAdminKey5a6b7c8d";
    private static final String JOB_IDEMPOTENCY = "sentinelIdempotencyJob-";
    private static final String CHAT_IDEMPOTENCY = "sentinelIdempotencyChat-";
    private static final Set<String> FINISHED = Set.of("failed", "succeeded", "manual_review", "canceled");

    private final Map<String, EchoVendor> vendors = new LinkedHashMap<>();
    private final List<String> answers = new ArrayList<>();
    private final Map<String, String> sentinels = new LinkedHashMap<>();

    @Test
    void noSentinelReachesTheLogAnAnswerOrTheDatabase() {
        vendors.put("oai", vendor("SCAN_OPENAI_KEY", SecretScanTest::openAiError));
        vendors.put("fal", vendor("SCAN_FAL_KEY", w -> "{\"detail\": " + w + ", \"error_type\": \"auth_failed\"}"));
        vendors.put(
                "rep", vendor("SCAN_REPLICATE_KEY", w -> "{\"title\": \"Unauthenticated\", \"detail\": " + w + "}"));
        vendors.put(
                "rw",
                vendor(
                        "SCAN_RUNWARE_KEY",
                        w -> "{\"errors\": [{\"code\": \"invalidApiKey\", \"message\": " + w + "}]}"));
        vendors.put("gpt", vendor("SCAN_CHAT_KEY", SecretScanTest::openAiError));
        vendors.put("local", vendor("SCAN_OLLAMA_KEY", w -> "{\"error\": " + w + "}"));
        KEYS.forEach(sentinels::put);
        sentinels.put("IDEM_SECRET", SERVER_SECRET);
        sentinels.put("IDEM_BOOTSTRAP_KEY", BOOTSTRAP_KEY);
        List<DatabaseText.Cell> stored;
        try (CapturedLog log = CapturedLog.start()) {
            try (TestServer server = TestServer.start(environment());
                    WebhookReceiver receiver = WebhookReceiver.start()) {
                String client = clientKey(server);
                sentinels.put("client API key", client);
                String subscription = subscribe(server, receiver);
                callbackSecret(server, client);
                int calls = 0;
                for (String provider : List.of("oai", "fal", "rep", "rw")) {
                    for (int status : new int[] {401, 403, 400}) {
                        vendors.get(provider).answerWith(status);
                        failedJob(server, client, provider, JOB_IDEMPOTENCY + calls++);
                        reopen(server, provider);
                    }
                }
                for (String model : List.of("scan-gpt", "llama3.2")) {
                    for (int status : new int[] {401, 403, 400}) {
                        vendors.get(model.equals("scan-gpt") ? "gpt" : "local").answerWith(status);
                        String provider = model.equals("scan-gpt") ? "gpt" : "local";
                        failedChat(server, client, model, false, CHAT_IDEMPOTENCY + calls++);
                        reopen(server, provider);
                        failedChat(server, client, model, true, CHAT_IDEMPOTENCY + calls++);
                        reopen(server, provider);
                    }
                }
                for (String path : List.of("/v1/jobs?state=failed", "/v1/providers", "/v1/events", "/v1/admin/keys")) {
                    seen(server.get(path, BOOTSTRAP_KEY));
                }
                awaitRefusedDeliveries(server, subscription);
                awaitChatAudit(server);
                stored = DatabaseText.everyValue(server.node().database());
            }
            vendors.values().forEach(EchoVendor::close);
            assertThat(log.text()).as("the log was captured").contains("starting Idem");
            assertThat(leaks("the log", List.of(log.text()))).isEmpty();
        }
        assertThat(vendors.values()).as("every adapter sent its key").allMatch(EchoVendor::sawKey);
        assertThat(leaks("an HTTP answer", answers)).isEmpty();
        assertThat(stored)
                .as("the vendors' words were stored, redacted")
                .anyMatch(c ->
                        c.table().equals("jobs") && c.text().contains("header was 'Key [redacted]', key [redacted]"))
                .anyMatch(c ->
                        c.table().equals("chat_attempts") && c.text().contains("'Bearer [redacted]', key [redacted]"));
        List<String> storedLeaks = new ArrayList<>();
        for (DatabaseText.Cell cell : stored) {
            storedLeaks.addAll(leaks(cell.table() + "." + cell.column(), List.of(cell.text())));
        }
        assertThat(storedLeaks).isEmpty();
    }

    private EchoVendor vendor(String keyVariable, java.util.function.UnaryOperator<String> shape) {
        return EchoVendor.start(KEYS.get(keyVariable), shape);
    }

    private static String openAiError(String words) {
        return "{\"error\": {\"message\": " + words
                + ", \"type\": \"invalid_request_error\", \"code\": \"invalid_api_key\"}}";
    }

    private Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>(KEYS);
        env.put("IDEM_SECRET", SERVER_SECRET);
        env.put("IDEM_BOOTSTRAP_KEY", BOOTSTRAP_KEY);
        env.put("IDEM_WEBHOOKS_ALLOW_PRIVATE_URLS", "true");
        env.put("IDEM_WEBHOOKS_FIRST_RETRY_SECONDS", "1");
        env.put("IDEM_WEBHOOKS_POLL_MILLIS", "200");
        env.put("PROVIDERS_JSON", """
                {"providers": {
                   "oai": {"adapter": "openai_images", "base_url": "%s/v1", "api_key_env": "SCAN_OPENAI_KEY"},
                   "fal": {"adapter": "fal", "base_url": "%s", "api_key_env": "SCAN_FAL_KEY"},
                   "rep": {"adapter": "replicate", "base_url": "%s", "api_key_env": "SCAN_REPLICATE_KEY"},
                   "rw": {"adapter": "runware", "base_url": "%s/v1", "api_key_env": "SCAN_RUNWARE_KEY",
                          "model": "runware:100@1"},
                   "gpt": {"adapter": "openai_chat", "base_url": "%s/v1", "api_key_env": "SCAN_CHAT_KEY",
                           "chat_models": {"scan-gpt": {"model": "gpt-4o-mini", "input_usd_per_1m": 0.1,
                                                        "output_usd_per_1m": 0.2}}},
                   "local": {"adapter": "ollama", "base_url": "%s", "api_key_env": "SCAN_OLLAMA_KEY",
                             "chat_models": ["llama3.2"]}},
                 "lanes": {"standard": ["oai", "fal", "rep", "rw"]}}
                """.formatted(
                        vendors.values().stream().map(EchoVendor::baseUrl).toArray()));
        return env;
    }

    /**
     * An admin's subscription to every event, at a receiver that refuses each delivery quoting the
     * signing secret back. The answer that creates it shows the secret, once and by design, so it is
     * not scanned.
     */
    private String subscribe(TestServer server, WebhookReceiver receiver) {
        TestServer.Reply created = server.post(
                "/v1/webhooks",
                BOOTSTRAP_KEY,
                "{\"url\": \"" + receiver.url("/scan") + "\", \"event_types\": [\"*\"]}");
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String secret = created.body().get("secret").asText();
        sentinels.put("webhook signing secret", secret);
        sentinels.put("webhook signing secret (its key)", secret.substring("whsec_".length()));
        receiver.failNext("/scan", Integer.MAX_VALUE, "refused: the secret " + secret + " is not the one we hold");
        seen(server.get("/v1/webhooks", BOOTSTRAP_KEY));
        return created.body().get("id").asText();
    }

    /** The client's callback signing secret, shown by design to its own key on this one route. */
    private void callbackSecret(TestServer server, String client) {
        TestServer.Reply reply = server.get("/v1/webhooks/callback-secret", client);
        assertThat(reply.status()).isEqualTo(200);
        sentinels.put("job callback signing secret", reply.body().get("secret").asText());
    }

    /** The failed jobs' deliveries were refused with the secret quoted; the log shows them redacted. */
    private void awaitRefusedDeliveries(TestServer server, String subscription) {
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(seen(server.get(
                                        "/v1/webhooks/" + subscription + "/deliveries?limit=200", BOOTSTRAP_KEY))
                                .body()
                                .get("data"))
                        .isNotEmpty()
                        .allSatisfy(
                                d -> assertThat(d.path("last_error").asText()).contains("[redacted]")));
    }

    /** A client key; the one answer that creates it shows it, once and by design, so it is not scanned. */
    private static String clientKey(TestServer server) {
        TestServer.Reply created =
                server.post("/v1/admin/keys", BOOTSTRAP_KEY, "{\"owner\": \"scanner\", \"role\": \"client\"}");
        assertThat(created.status()).isEqualTo(201);
        return created.body().get("key").asText();
    }

    private void failedJob(TestServer server, String client, String provider, String idempotencyKey) {
        String body = "{\"prompt\": \"a lighthouse\", \"timeout\": 10, \"provider_policy\": {\"primary\": \"" + provider
                + "\"}}";
        sentinels.put("idempotency key " + idempotencyKey, idempotencyKey);
        TestServer.Reply accepted =
                seen(server.send("POST", "/v1/jobs", client, body, Map.of("Idempotency-Key", idempotencyKey)));
        assertThat(accepted.status()).as(accepted.raw()).isEqualTo(202);
        String id = accepted.body().get("id").asText();
        await().atMost(Duration.ofSeconds(30))
                .until(() ->
                        FINISHED.contains(job(server, client, id).get("state").asText()));
        JsonNode job = job(server, client, id);
        assertThat(job.get("state").asText()).as(job.toString()).isEqualTo("failed");
        assertThat(job.path("error").path("message").asText())
                .as(job.toString())
                .contains("[redacted]");
        seen(server.get("/v1/jobs/" + id + "/events", client));
    }

    private JsonNode job(TestServer server, String client, String id) {
        return seen(server.get("/v1/jobs/" + id, client)).body();
    }

    private void failedChat(TestServer server, String client, String model, boolean stream, String idempotencyKey) {
        sentinels.put("idempotency key " + idempotencyKey, idempotencyKey);
        String body = "{\"model\": \"" + model + "\", \"stream\": " + stream
                + ", \"messages\": [{\"role\": \"user\", \"content\": \"hello\"}]}";
        TestServer.Reply reply = seen(
                server.send("POST", "/v1/chat/completions", client, body, Map.of("Idempotency-Key", idempotencyKey)));
        assertThat(reply.raw()).as("the chat call failed and said why").contains("error");
    }

    /**
     * A 401 or 403 closes its provider as unusable; the scan puts it back into service (as an
     * operator would once the key is fixed), so every answer of the scan reaches its vendor.
     */
    private static void reopen(TestServer server, String provider) {
        server.node().database().withConnection(c -> {
            try (var ps = c.prepareStatement(
                    "UPDATE provider_breakers SET state = 'closed', open_until = NULL, probe_owner = NULL,"
                            + " probe_until = NULL, reopens = 0, version = version + 1 WHERE provider = ?")) {
                ps.setString(1, provider);
                return ps.executeUpdate();
            }
        });
        server.node().breakers().refresh(provider);
    }

    private TestServer.Reply seen(TestServer.Reply reply) {
        answers.add(reply.raw());
        answers.add(reply.headers().toString());
        return reply;
    }

    private static void awaitChatAudit(TestServer server) {
        try {
            assertThat(server.node().chat().audit().awaitWritten(Duration.ofSeconds(10)))
                    .isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** "sentinel in where" for every sentinel any of {@code texts} holds. */
    private List<String> leaks(String where, List<String> texts) {
        List<String> found = new ArrayList<>();
        sentinels.forEach((name, value) -> {
            if (texts.stream().anyMatch(t -> t != null && t.contains(value))) {
                found.add(name + " in " + where);
            }
        });
        return found;
    }
}
