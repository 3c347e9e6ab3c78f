package io.idem.providers.openai;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.providers.http.VendorJson;
import java.util.Optional;

/**
 * OpenAI's error envelope, {@code {"error": {"message", "type", "param", "code"}}}, plus the
 * {@code moderation_details.moderation_stage} GPT image models add to {@code moderation_blocked}.
 * Every field may be missing (an edge proxy answers with HTML).
 */
record OpenAiError(
        Optional<String> type,
        Optional<String> code,
        Optional<String> message,
        Optional<String> param,
        Optional<String> moderationStage) {

    static OpenAiError parse(byte[] body) {
        Optional<JsonNode> root = VendorJson.parse(body);
        JsonNode error = root.map(r -> r.path("error")).orElse(VendorJson.MAPPER.missingNode());
        Optional<String> stage = VendorJson.text(error.path("moderation_details"), "moderation_stage")
                .or(() -> root.flatMap(r -> VendorJson.text(r.path("moderation_details"), "moderation_stage")));
        return new OpenAiError(
                VendorJson.text(error, "type"),
                VendorJson.text(error, "code"),
                VendorJson.text(error, "message"),
                VendorJson.text(error, "param"),
                stage);
    }

    /** The vendor's most specific name for the error: its code, else its type. */
    Optional<String> name() {
        return code.or(() -> type);
    }

    boolean named(java.util.Set<String> names) {
        return code.filter(names::contains).isPresent()
                || type.filter(names::contains).isPresent();
    }
}
