package io.idem.server.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.idem.server.TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the webhook tests share: the node settings (private receivers allowed, short timeouts and
 * retries, the demo's providers and chat models plus a provider whose health a test switches), and
 * small steps on a node.
 */
final class WebhookNodes {
    static final String ADMIN = TestServer.ADMIN_KEY;

    private WebhookNodes() {}

    /** A stand-in vendor that only answers health checks, healthy until told otherwise. */
    static final class HealthSwitch implements AutoCloseable {
        private final HttpServer server;
        private final AtomicBoolean healthy = new AtomicBoolean(true);

        HealthSwitch() {
            try {
                server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server.createContext("/", exchange -> {
                boolean ok = healthy.get() && exchange.getRequestURI().getPath().equals("/health");
                byte[] body = (ok ? "{\"status\": \"ok\"}" : "{\"status\": \"down\"}").getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(ok ? 200 : 503, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        void healthy(boolean value) {
            healthy.set(value);
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    /** The settings of a webhook test node on {@code database}, with the switchable provider {@code flaky}. */
    static Map<String, String> env(String database, String workerId, HealthSwitch flaky) {
        Map<String, String> env = new HashMap<>();
        env.put("IDEM_DATABASE_URL", database);
        env.put("IDEM_WORKER_ID", workerId);
        env.put("IDEM_WEBHOOKS_ALLOW_PRIVATE_URLS", "true");
        env.put("IDEM_WEBHOOKS_TIMEOUT_SECONDS", "2");
        env.put("IDEM_WEBHOOKS_FIRST_RETRY_SECONDS", "1");
        env.put("IDEM_WEBHOOKS_POLL_MILLIS", "200");
        // checks run when a test asks (and once at start), so health changes are the test's to make
        env.put("IDEM_HEALTH_CHECK_SECONDS", "3600");
        env.put("PROVIDERS_JSON", """
                {"providers": {
                   "primary": {"adapter": "fake", "cost_per_image_usd": "0.04", "chat_models": ["fake-chat-a"]},
                   "backup": {"adapter": "fake", "cost_per_image_usd": "0.04", "chat_models": ["fake-chat-b"]},
                   "flaky": {"adapter": "fake", "base_url": "%s"},
                   "canned": {"adapter": "static", "chat_models": ["static"]}},
                 "lanes": {"standard": ["primary", "backup"]}}
                """.formatted(flaky.url()));
        return env;
    }

    /** Subscribes with {@code key}; returns the answer (its body holds the secret). */
    static TestServer.Reply subscribe(TestServer node, String key, String url, String... types) {
        String list = String.join(
                ", ", java.util.Arrays.stream(types).map(t -> "\"" + t + "\"").toList());
        return node.post("/v1/webhooks", key, "{\"url\": \"" + url + "\", \"event_types\": [" + list + "]}");
    }

    /** Subscribes the receiver's {@code path} and tells the receiver its secret; returns the subscription id. */
    static String subscribed(TestServer node, String key, WebhookReceiver receiver, String path, String... types) {
        TestServer.Reply reply = subscribe(node, key, receiver.url(path), types);
        if (reply.status() != 201) {
            throw new IllegalStateException("could not subscribe: " + reply.raw());
        }
        receiver.expect(path, reply.body().get("secret").asText());
        return reply.body().get("id").asText();
    }

    /** Submits a job; returns its id. */
    static String job(TestServer node, String key, String body) {
        TestServer.Reply reply = node.post("/v1/jobs", key, body);
        if (reply.status() != 202) {
            throw new IllegalStateException("job not accepted: " + reply.raw());
        }
        return reply.body().get("id").asText();
    }

    static String state(TestServer node, String id) {
        return node.get("/v1/jobs/" + id, ADMIN).body().get("state").asText();
    }

    /** Every delivery of a subscription, following the log's cursor. */
    static java.util.List<JsonNode> deliveries(TestServer node, String key, String subscription) {
        java.util.List<JsonNode> all = new java.util.ArrayList<>();
        String cursor = null;
        do {
            TestServer.Reply page = node.get(
                    "/v1/webhooks/" + subscription + "/deliveries?limit=7"
                            + (cursor == null ? "" : "&cursor=" + cursor),
                    key);
            if (page.status() != 200) {
                throw new IllegalStateException(page.raw());
            }
            page.body().get("data").forEach(all::add);
            cursor = page.body().get("next_cursor").isNull()
                    ? null
                    : page.body().get("next_cursor").asText();
        } while (cursor != null);
        return all;
    }
}
