package io.idem.providers.fake;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.outcome.GenerationResult;
import io.idem.providers.http.VendorJson;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Reads the fake vendor's JSON as a client: lenient about what it does not need, strict about the
 * images. Whatever the vendor sends, these methods answer with an empty value rather than throw.
 */
final class FakeGenerationJson {
    private FakeGenerationJson() {}

    /** The vendor's error {@code code} (and friends) from an error envelope. */
    static Optional<String> errorField(byte[] body, String field) {
        return VendorJson.parse(body).flatMap(root -> VendorJson.text(root.path("error"), field));
    }

    /** The delivered images; empty if there is none or any one is unreadable. */
    static Optional<GenerationResult> images(JsonNode root) {
        JsonNode images = root.path("images");
        if (!images.isArray() || images.isEmpty()) {
            return Optional.empty();
        }
        List<GenerationResult.Media> media = new ArrayList<>();
        for (JsonNode image : images) {
            Optional<String> data = VendorJson.text(image, "b64_json");
            if (data.isEmpty()) {
                return Optional.empty();
            }
            try {
                media.add(new GenerationResult.Media(
                        Base64.getDecoder().decode(data.get()),
                        VendorJson.text(image, "mime_type").orElse("application/octet-stream")));
            } catch (IllegalArgumentException notBase64) {
                return Optional.empty();
            }
        }
        return Optional.of(new GenerationResult(media));
    }

    /** The vendor's stated cost, if it stated a readable one. */
    static Optional<BigDecimal> cost(JsonNode root) {
        try {
            return VendorJson.text(root, "cost_usd").map(BigDecimal::new).filter(cost -> cost.signum() >= 0);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
