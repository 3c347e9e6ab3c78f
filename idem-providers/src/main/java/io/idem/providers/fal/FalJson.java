package io.idem.providers.fal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads fal's JSON leniently: whatever fal sends, these answer with an empty value, never throw. */
final class FalJson {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_MESSAGE = 300;

    private FalJson() {}

    static Optional<JsonNode> parse(byte[] body) {
        try {
            JsonNode root = JSON.readTree(body);
            return root != null && root.isObject() ? Optional.of(root) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isTextual() && !value.asText().isBlank() ? Optional.of(value.asText()) : Optional.empty();
    }

    /**
     * The media URLs of a model output: {@code images[].url}, {@code image.url} or {@code
     * video.url}. Empty if there is none or any one is unreadable.
     */
    static List<URI> mediaUrls(JsonNode output) {
        List<JsonNode> items = new ArrayList<>();
        output.path("images").forEach(items::add);
        if (output.path("image").isObject()) {
            items.add(output.path("image"));
        }
        if (output.path("video").isObject()) {
            items.add(output.path("video"));
        }
        List<URI> urls = new ArrayList<>();
        for (JsonNode item : items) {
            Optional<URI> url = text(item, "url").flatMap(FalJson::uri);
            if (url.isEmpty()) {
                return List.of();
            }
            urls.add(url.get());
        }
        return urls;
    }

    static String clip(String text) {
        return text.length() <= MAX_MESSAGE ? text : text.substring(0, MAX_MESSAGE) + "…";
    }

    private static Optional<URI> uri(String text) {
        try {
            URI uri = URI.create(text);
            return uri.getScheme() == null ? Optional.empty() : Optional.of(uri);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
