package io.idem.providers.openai;

import com.fasterxml.jackson.databind.JsonNode;
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
        Optional<JsonNode> root = OpenAiJson.parse(body);
        JsonNode error = root.map(r -> r.path("error")).orElse(OpenAiJson.MAPPER.missingNode());
        Optional<String> stage = OpenAiJson.text(error.path("moderation_details"), "moderation_stage")
                .or(() -> root.flatMap(r -> OpenAiJson.text(r.path("moderation_details"), "moderation_stage")));
        return new OpenAiError(
                OpenAiJson.text(error, "type"),
                OpenAiJson.text(error, "code"),
                OpenAiJson.text(error, "message"),
                OpenAiJson.text(error, "param"),
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
