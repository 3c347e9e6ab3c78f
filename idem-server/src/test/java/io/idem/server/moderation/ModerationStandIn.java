package io.idem.server.moderation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in of OpenAI's moderations endpoint, written from its public reference: {@code POST
 * /v1/moderations} with a bearer key, {@code model} and an {@code input} array of {@code text} and
 * {@code image_url} parts; it answers one result with {@code flagged}, {@code categories}, {@code
 * category_scores} and {@code category_applied_input_types}, a 401 error object for a wrong key, a
 * 400 for a malformed body, and 503 while it is switched off. It flags a text part containing
 * "forbidden".
 */
final class ModerationStandIn implements AutoCloseable {
    static final String KEY = "sk-moderation-test-secret-0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    volatile boolean down;

    private ModerationStandIn(HttpServer server) {
        this.server = server;
    }

    static ModerationStandIn start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            ModerationStandIn standIn = new ModerationStandIn(server);
            server.createContext("/v1/moderations", standIn::handle);
            server.start();
            return standIn;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/moderations";
    }

    private void handle(HttpExchange exchange) throws IOException {
        byte[] raw = exchange.getRequestBody().readAllBytes();
        if (down) {
            answer(exchange, 503, "{\"error\": {\"message\": \"overloaded\", \"type\": \"server_error\"}}");
            return;
        }
        if (!exchange.getRequestMethod().equals("POST")) {
            answer(exchange, 405, "{}");
            return;
        }
        if (!("Bearer " + KEY).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            answer(exchange, 401, """
                    {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error",
                     "param": null, "code": "invalid_api_key"}}""");
            return;
        }
        JsonNode body = JSON.readTree(raw);
        requests.add(body);
        if (!body.path("model").isTextual()
                || !body.path("input").isArray()
                || body.get("input").isEmpty()) {
            answer(exchange, 400, "{\"error\": {\"message\": \"invalid input\", \"type\": \"invalid_request_error\"}}");
            return;
        }
        boolean flagged = false;
        for (JsonNode part : body.get("input")) {
            String type = part.path("type").asText();
            if (type.equals("text") && part.path("text").asText().contains("forbidden")) {
                flagged = true;
            } else if (type.equals("image_url")
                    && !part.path("image_url").path("url").asText().startsWith("data:image/")) {
                answer(exchange, 400, "{\"error\": {\"message\": \"bad image_url\"}}");
                return;
            }
        }
        answer(exchange, 200, """
                {"id": "modr-1", "model": "omni-moderation-latest", "results": [{
                  "flagged": %s,
                  "categories": {"sexual": %s, "violence": false, "harassment": false},
                  "category_scores": {"sexual": %s, "violence": 0.0001, "harassment": 0.0002},
                  "category_applied_input_types": {"sexual": ["text", "image"], "violence": [], "harassment": []}
                }]}""".formatted(flagged, flagged, flagged ? "0.97" : "0.001"));
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
