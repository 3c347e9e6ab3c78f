package io.idem.providers.moderation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.moderation.ModerationVerdict;
import io.idem.core.moderation.OutputModerator;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * OpenAI's moderations endpoint ({@code POST /v1/moderations}, model {@code
 * omni-moderation-latest}): the prompt as a text input and each image as a base64 {@code data:} URL
 * input, in one request; flagged when any result is. Media it cannot take (video, audio) get no
 * verdict ({@code unavailable}), so they are withheld rather than passed unchecked: moderate those
 * with the HTTP hook. Thread-safe.
 */
public final class OpenAiModerator implements OutputModerator {
    private final ModerationCalls calls;
    private final String model;

    public OpenAiModerator(String name, URI url, Optional<String> key, String model, Duration timeout) {
        this.calls = new ModerationCalls(name, url, key, timeout);
        this.model = model;
    }

    @Override
    public ModerationVerdict check(Input input) {
        ObjectNode body = ModerationCalls.JSON.createObjectNode();
        body.put("model", model);
        ArrayNode inputs = body.putArray("input");
        if (input.prompt() != null && !input.prompt().isBlank()) {
            inputs.addObject().put("type", "text").put("text", input.prompt());
        }
        for (Media media : input.media()) {
            if (!media.mimeType().startsWith("image/")) {
                return ModerationVerdict.unavailable(calls.name(), "cannot moderate " + media.mimeType());
            }
            String url = "data:" + media.mimeType() + ";base64,"
                    + Base64.getEncoder().encodeToString(media.bytes());
            inputs.addObject().put("type", "image_url").putObject("image_url").put("url", url);
        }
        return calls.ask(body, this::verdict);
    }

    private ModerationVerdict verdict(JsonNode answer) {
        JsonNode results = answer.get("results");
        if (results == null || !results.isArray() || results.isEmpty()) {
            throw new IllegalArgumentException("no results");
        }
        boolean flagged = false;
        List<String> categories = new ArrayList<>();
        for (JsonNode result : results) {
            if (!result.path("flagged").isBoolean()) {
                throw new IllegalArgumentException("no flagged field");
            }
            flagged |= result.get("flagged").asBoolean();
            result.path("categories").properties().forEach(c -> {
                if (c.getValue().asBoolean(false) && !categories.contains(c.getKey())) {
                    categories.add(c.getKey());
                }
            });
        }
        return flagged ? ModerationVerdict.flagged(calls.name(), categories) : ModerationVerdict.passed(calls.name());
    }
}
