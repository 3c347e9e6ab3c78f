package io.idem.server.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.TestServer;
import io.idem.server.http.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Small helpers for chat tests: requests, SSE frames, and the durable audit. */
final class ChatCalls {
    static final String PATH = "/v1/chat/completions";
    static final String HELLO = "\"messages\":[{\"role\":\"user\",\"content\":\"hi there\"}]";

    private ChatCalls() {}

    static TestServer.Reply call(TestServer server, String key, String fields) {
        return call(server, key, fields, Map.of());
    }

    static TestServer.Reply call(TestServer server, String key, String fields, Map<String, String> headers) {
        String body = "{" + fields + (fields.isBlank() ? "" : ",") + HELLO + "}";
        return server.send("POST", PATH, key, body, headers);
    }

    /** The JSON of every {@code data:} frame except {@code [DONE]}, in order. */
    static List<JsonNode> frames(String sse) {
        List<JsonNode> frames = new ArrayList<>();
        for (String block : sse.split("\n\n")) {
            String data = block.strip();
            if (data.startsWith("data: ") && !data.equals("data: [DONE]")) {
                try {
                    frames.add(Json.MAPPER.readTree(data.substring(6)));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return frames;
    }

    /** The streamed text: every content delta joined. */
    static String text(List<JsonNode> frames) {
        StringBuilder text = new StringBuilder();
        frames.forEach(f -> text.append(
                f.path("choices").path(0).path("delta").path("content").asText("")));
        return text.toString();
    }

    static void awaitAudit(TestServer server) {
        try {
            if (!server.node().chat().audit().awaitWritten(Duration.ofSeconds(10))) {
                throw new IllegalStateException("the chat audit did not commit in time");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** One scalar from the node's database. */
    static <T> T query(TestServer server, String sql, Class<T> type, Object... args) {
        return server.node().database().withConnection(c -> {
            try (var ps = c.prepareStatement(sql)) {
                for (int i = 0; i < args.length; i++) {
                    ps.setObject(i + 1, args[i]);
                }
                try (var rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getObject(1, type);
                }
            }
        });
    }

    static BigDecimal sum(TestServer server, String sql, Object... args) {
        BigDecimal value = query(server, sql, BigDecimal.class, args);
        return value == null ? BigDecimal.ZERO : value;
    }

    /** A new client key with these attributes set by PATCH; returns its secret. */
    static String keyWith(TestServer server, String owner, String attributes) {
        var created = server.post(
                "/v1/admin/keys", TestServer.ADMIN_KEY, "{\"owner\":\"" + owner + "\",\"role\":\"client\"}");
        String id = created.body().get("id").asText();
        var patched = server.send("PATCH", "/v1/admin/keys/" + id, TestServer.ADMIN_KEY, attributes, Map.of());
        if (patched.status() != 200) {
            throw new IllegalStateException("PATCH refused: " + patched.raw());
        }
        return created.body().get("key").asText();
    }
}
