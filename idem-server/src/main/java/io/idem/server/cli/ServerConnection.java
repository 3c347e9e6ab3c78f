package io.idem.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.http.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import picocli.CommandLine.Option;

/** How a CLI command reaches a running server: its URL and a key (never printed). */
final class ServerConnection {
    @Option(
            names = "--server",
            defaultValue = "${env:IDEM_URL:-http://127.0.0.1:8080}",
            description = "Idem base URL (default: $IDEM_URL or http://127.0.0.1:8080).")
    String url;

    @Option(
            names = "--api-key",
            defaultValue = "${env:IDEM_API_KEY}",
            description = "An API key with the needed role (default: $IDEM_API_KEY).")
    String apiKey;

    JsonNode call(String method, String path, Object body) throws Exception {
        if (apiKey == null || apiKey.isBlank()) {
            throw new IllegalArgumentException("an API key is needed: set IDEM_API_KEY or pass --api-key");
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + path))
                .header("Authorization", "Bearer " + apiKey)
                .header("Content-Type", "application/json");
        request.method(
                method,
                body == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(Json.MAPPER.writeValueAsBytes(body)));
        HttpResponse<String> response;
        try (HttpClient client = HttpClient.newHttpClient()) {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
        if (response.statusCode() >= 400) {
            throw new IllegalStateException("server answered " + response.statusCode() + ": " + response.body());
        }
        return response.body().isEmpty() ? null : Json.MAPPER.readTree(response.body());
    }

    /**
     * The status a keyless {@code GET path} answers within {@code timeout} (the probes), its body
     * unread. Throws when the node does not answer at all.
     */
    int probe(String path, java.time.Duration timeout) throws java.io.IOException, InterruptedException {
        HttpRequest request =
                HttpRequest.newBuilder(URI.create(url + path)).timeout(timeout).build();
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).build()) {
            return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        }
    }

    /** {@code value} as one path segment: an id typed by a person never reaches another route. */
    static String segment(String value) {
        return java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8)
                .replace("+", "%20");
    }

    static void print(JsonNode node) throws Exception {
        System.out.println(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node));
    }
}
