package io.idem.providers.moderation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.idem.core.moderation.ModerationVerdict;
import io.idem.providers.http.PooledJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * One moderation request over HTTP: a JSON body out, a JSON answer in, read by the moderator; any
 * failure (unreachable, timeout, non-200, unreadable answer) is an {@code unavailable} verdict that
 * names the failure but never the key or the answer's body. Thread-safe.
 */
final class ModerationCalls {
    static final ObjectMapper JSON = PooledJson.mapper();

    private final String name;
    private final URI url;
    private final Optional<String> key;
    private final Duration timeout;
    private final HttpClient client;

    ModerationCalls(String name, URI url, Optional<String> key, Duration timeout) {
        this.name = name;
        this.url = url;
        this.key = key;
        this.timeout = timeout;
        this.client = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    String name() {
        return name;
    }

    /** Posts {@code body} and reads a 200 answer with {@code read}; anything else is unavailable. */
    ModerationVerdict ask(JsonNode body, Function<JsonNode, ModerationVerdict> read) {
        HttpRequest.Builder request = HttpRequest.newBuilder(url)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes(body)));
        key.ifPresent(k -> request.header("Authorization", "Bearer " + k));
        HttpResponse<byte[]> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            return ModerationVerdict.unavailable(
                    name, "moderator unreachable: " + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ModerationVerdict.unavailable(name, "interrupted");
        }
        if (response.statusCode() != 200) {
            return ModerationVerdict.unavailable(name, "moderator answered HTTP " + response.statusCode());
        }
        try {
            return read.apply(JSON.readTree(response.body()));
        } catch (IOException | RuntimeException e) {
            return ModerationVerdict.unavailable(name, "moderator's answer could not be read");
        }
    }

    private static byte[] bytes(JsonNode body) {
        try {
            return JSON.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
