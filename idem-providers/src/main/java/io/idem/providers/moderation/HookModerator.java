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
 * A moderation hook of the operator's own: {@code POST} {@code {"kind", "prompt", "media": [{"mime_type",
 * "data_base64"}]}} (with {@code Authorization: Bearer} when a key is configured), answered {@code
 * 200 {"flagged": bool, "categories": [...]}}. Anything else is no verdict, and the result is
 * withheld. Thread-safe.
 */
public final class HookModerator implements OutputModerator {
    private final ModerationCalls calls;

    public HookModerator(String name, URI url, Optional<String> key, Duration timeout) {
        this.calls = new ModerationCalls(name, url, key, timeout);
    }

    @Override
    public ModerationVerdict check(Input input) {
        ObjectNode body = ModerationCalls.JSON.createObjectNode();
        body.put("kind", input.kind());
        body.put("prompt", input.prompt());
        ArrayNode media = body.putArray("media");
        for (Media piece : input.media()) {
            media.addObject()
                    .put("mime_type", piece.mimeType())
                    .put("data_base64", Base64.getEncoder().encodeToString(piece.bytes()));
        }
        return calls.ask(body, this::verdict);
    }

    private ModerationVerdict verdict(JsonNode answer) {
        if (!answer.path("flagged").isBoolean()) {
            throw new IllegalArgumentException("no flagged field");
        }
        if (!answer.get("flagged").asBoolean()) {
            return ModerationVerdict.passed(calls.name());
        }
        List<String> categories = new ArrayList<>();
        answer.path("categories").forEach(c -> categories.add(c.asText()));
        return ModerationVerdict.flagged(calls.name(), categories);
    }
}
