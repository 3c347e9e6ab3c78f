package io.idem.server.videos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.idem.server.TestServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The two native video vendors end to end on a real node, against stand-ins that take the submit's
 * body and then drop the connection without answering (the answer is lost after the task began):
 * Kling's task is found by our reference and delivered; Veo's attempt parks, reconcile cannot help.
 */
class NativeVideoVendorsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] CLIP = "\0\0\0\u0018ftypmp42native-clip".getBytes(StandardCharsets.ISO_8859_1);
    private static final Set<String> SETTLED = Set.of("succeeded", "failed", "manual_review", "canceled");

    private static HttpServer vendors;
    private static TestServer server;
    /** Kling's tasks by our external_task_id, as the stand-in received them. */
    private static final Map<String, String> KLING_TASKS = new ConcurrentHashMap<>();

    @BeforeAll
    static void start() throws IOException {
        vendors = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        vendors.createContext("/v1/videos/", NativeVideoVendorsTest::kling);
        vendors.createContext("/v1beta/", NativeVideoVendorsTest::dropAfterBody);
        vendors.createContext("/cdn/", exchange -> answer(exchange, 200, "video/mp4", CLIP));
        vendors.start();
        String base = "http://127.0.0.1:" + vendors.getAddress().getPort();
        server = TestServer.start(Map.of(
                "E2E_KLING_AK", "ak-e2e-kling-8c1d",
                "E2E_KLING_SK", "sk-e2e-kling-secret-5d2e",
                "E2E_GEMINI", "gemini-e2e-key-77aa",
                "PROVIDERS_JSON", """
                        {"providers": {
                           "kling": {"adapter": "kling", "base_url": "%s", "api_key_env": "E2E_KLING_AK",
                                     "secret_key_env": "E2E_KLING_SK", "cost_per_second_usd": "0.07"},
                           "veo": {"adapter": "veo", "base_url": "%s", "api_key_env": "E2E_GEMINI",
                                   "model": "veo-3.1-generate-001", "cost_per_second_usd": "0.40"}},
                         "lanes": {"standard": ["kling", "veo"]}}
                        """.formatted(base, base)));
    }

    @AfterAll
    static void stop() {
        server.close();
        vendors.stop(0);
    }

    /** Submit: the task is created, then the answer is lost; a query by id (ours) finds it done. */
    private static void kling(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (exchange.getRequestMethod().equals("POST")) {
            JsonNode body = JSON.readTree(exchange.getRequestBody());
            KLING_TASKS.put(body.get("external_task_id").asText(), "t-" + KLING_TASKS.size());
            exchange.close(); // the answer never comes
            return;
        }
        String id = path.substring(path.lastIndexOf('/') + 1);
        String task = KLING_TASKS.get(id);
        if (task == null) {
            answer(exchange, 404, "application/json", "{\"code\":1203,\"message\":\"no such task\"}".getBytes());
            return;
        }
        String clip = "http://127.0.0.1:" + vendors.getAddress().getPort() + "/cdn/clip.mp4";
        answer(
                exchange,
                200,
                "application/json",
                ("{\"code\":0,\"data\":{\"task_id\":\"" + task
                                + "\",\"task_status\":\"succeed\",\"task_result\":{\"videos\":[{\"url\":\"" + clip
                                + "\",\"duration\":\"5\"}]}}}")
                        .getBytes(StandardCharsets.UTF_8));
    }

    private static void dropAfterBody(HttpExchange exchange) throws IOException {
        exchange.getRequestBody().readAllBytes();
        exchange.close();
    }

    private static void answer(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        try (exchange) {
            exchange.getResponseHeaders().set("Content-Type", type);
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static String create(String provider, int seconds) {
        var created = server.post("/v1/jobs", TestServer.ADMIN_KEY, """
                {"prompt": "A kite over dunes", "kind": "video", "duration_seconds": %d, "timeout": 10,
                 "provider_policy": {"primary": "%s"}}
                """.formatted(seconds, provider));
        assertThat(created.status()).as(created.raw()).isEqualTo(202);
        return created.body().get("id").asText();
    }

    private static JsonNode settled(String id) {
        JsonNode[] job = new JsonNode[1];
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    job[0] = server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY).body();
                    return SETTLED.contains(job[0].get("state").asText());
                });
        return job[0];
    }

    @Test
    void aLostKlingSubmitParksAndReconcileDeliversTheTaskFoundByOurReference() {
        String id = create("kling", 5);
        JsonNode parked = settled(id);
        assertThat(parked.get("state").asText()).as(parked.toString()).isEqualTo("manual_review");

        var reconciled = server.post("/v1/jobs/" + id + "/reconcile", TestServer.ADMIN_KEY, null);

        assertThat(reconciled.status()).as(reconciled.raw()).isEqualTo(200);
        JsonNode job = settled(id);
        assertThat(job.get("state").asText()).as(job.toString()).isEqualTo("succeeded");
        assertThat(job.get("result").get("provider").asText()).isEqualTo("kling");
        assertThat(job.get("attempts").get(0).get("cost_usd").asText()).isEqualTo("0.35");
        assertThat(job.toString()).doesNotContain("sk-e2e-kling-secret-5d2e").doesNotContain("ak-e2e-kling-8c1d");
    }

    @Test
    void aLostVeoSubmitParksAndReconcileCannotFindIt() {
        String id = create("veo", 8);
        JsonNode parked = settled(id);
        assertThat(parked.get("state").asText()).as(parked.toString()).isEqualTo("manual_review");

        server.post("/v1/jobs/" + id + "/reconcile", TestServer.ADMIN_KEY, null);

        JsonNode job = settled(id);
        assertThat(job.get("state").asText()).as(job.toString()).isEqualTo("manual_review");
        assertThat(job.toString()).doesNotContain("gemini-e2e-key-77aa");
    }

    @Test
    void aClipNeitherVendorMakesIsNotRoutedToThem() {
        var created = server.post("/v1/jobs", TestServer.ADMIN_KEY, """
                {"prompt": "A kite over dunes", "kind": "video", "duration_seconds": 7, "timeout": 10}
                """);

        assertThat(created.status()).as(created.raw()).isEqualTo(400);
        assertThat(created.body().get("error").get("code").asText()).isEqualTo("no_eligible_provider");
        assertThat(created.body().get("error").get("skipped").get("kling").asText())
                .isEqualTo("duration_unsupported");
        assertThat(created.body().get("error").get("skipped").get("veo").asText())
                .isEqualTo("duration_unsupported");
    }
}
