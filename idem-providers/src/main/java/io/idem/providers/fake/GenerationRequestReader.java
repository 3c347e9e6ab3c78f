package io.idem.providers.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/** Reads a generation request body, naming the first thing wrong with it the way a vendor would. */
final class GenerationRequestReader {
    /** The fields every generation body has; the rest are its options. */
    private static final java.util.List<String> CORE = java.util.List.of("model", "prompt", "size", "n", "reference");

    private GenerationRequestReader() {}

    sealed interface Result {}

    record Valid(GenerationRequest request) implements Result {}

    record Invalid(String code, String message) implements Result {}

    /**
     * A video request: an image request's fields (one clip, {@code n} 1) and {@code seconds}, a whole
     * number or its digits as text (OpenAI sends {@code "4"}), 1..{@value GenerationRequest#MAX_SECONDS}.
     */
    static Result readVideo(byte[] body) {
        Result read = read(body);
        if (!(read instanceof Valid valid)) {
            return read;
        }
        JsonNode seconds;
        try {
            seconds = VendorBodies.JSON.readTree(body).path("seconds");
        } catch (IOException e) {
            return new Invalid("invalid_json", "the body is not valid JSON");
        }
        String text = seconds.isIntegralNumber() ? seconds.asText() : seconds.isTextual() ? seconds.textValue() : "";
        if (!text.matches("[0-9]{1,3}")
                || Integer.parseInt(text) < 1
                || Integer.parseInt(text) > GenerationRequest.MAX_SECONDS) {
            return new Invalid("invalid_seconds", "seconds must be 1.." + GenerationRequest.MAX_SECONDS);
        }
        GenerationRequest r = valid.request();
        if (r.n() != 1) {
            return new Invalid("invalid_n", "a video request makes one clip");
        }
        return new Valid(
                new GenerationRequest(r.model(), r.prompt(), r.size(), 1, r.reference(), Integer.parseInt(text)));
    }

    static Result read(byte[] body) {
        JsonNode root;
        try {
            root = VendorBodies.JSON.readTree(body);
        } catch (IOException e) {
            return new Invalid("invalid_json", "the body is not valid JSON");
        }
        if (root == null || !root.isObject()) {
            return new Invalid("invalid_json", "the body must be a JSON object");
        }
        JsonNode model = root.path("model");
        if (!model.isTextual() || model.asText().isBlank()) {
            return new Invalid("missing_model", "model is required");
        }
        JsonNode prompt = root.path("prompt");
        if (!prompt.isTextual() || prompt.asText().isBlank()) {
            return new Invalid("missing_prompt", "prompt is required");
        }
        if (prompt.asText().length() > GenerationRequest.MAX_PROMPT) {
            return new Invalid("prompt_too_long", "prompt exceeds " + GenerationRequest.MAX_PROMPT + " characters");
        }
        JsonNode size = root.path("size");
        boolean auto = size.isTextual() && size.asText().equals("auto");
        if (!size.isMissingNode() && !auto && !(size.isTextual() && GenerationRequest.validSize(size.asText()))) {
            return new Invalid("invalid_size", "size must be WIDTHxHEIGHT, each 1..9999");
        }
        JsonNode n = root.path("n");
        if (!n.isMissingNode()
                && !(n.isIntegralNumber()
                        && n.canConvertToInt()
                        && n.asInt() >= 1
                        && n.asInt() <= GenerationRequest.MAX_N)) {
            return new Invalid("invalid_n", "n must be an integer 1.." + GenerationRequest.MAX_N);
        }
        JsonNode reference = root.path("reference");
        if (!reference.isMissingNode()
                && !reference.isNull()
                && !(reference.isTextual() && reference.asText().length() <= GenerationRequest.MAX_REFERENCE)) {
            return new Invalid(
                    "invalid_reference",
                    "reference must be a string of at most " + GenerationRequest.MAX_REFERENCE + " characters");
        }
        ObjectNode options = options((ObjectNode) root, auto);
        return new Valid(new GenerationRequest(
                model.asText(),
                prompt.asText(),
                size.isMissingNode() || auto ? "1024x1024" : size.asText(),
                n.isMissingNode() ? 1 : n.asInt(),
                reference.isTextual() ? reference.asText() : null,
                0,
                options));
    }

    /** What a body carries beyond its core fields, as the generation record echoes it. */
    private static ObjectNode options(ObjectNode root, boolean auto) {
        ObjectNode options = root.deepCopy();
        options.remove(CORE);
        if (auto) {
            options.put("size", "auto");
        }
        // an edit's uploads show as what arrived of them, not their bytes
        if (options.has("images")) {
            var types = options.putArray("image_types");
            root.path("images").forEach(i -> types.add(i.path("mime_type").asText()));
            options.remove("images");
        }
        if (options.has("mask")) {
            options.put("mask", root.path("mask").path("mime_type").asText());
        }
        return options;
    }
}
