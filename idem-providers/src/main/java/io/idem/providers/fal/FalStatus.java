package io.idem.providers.fal;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.providers.http.VendorJson;
import java.util.Optional;

/**
 * One answer of {@code GET …/requests/{id}/status}. {@code COMPLETED} carries {@code error} and
 * {@code error_type} when the request failed.
 */
record FalStatus(Phase phase, String raw, Optional<String> error, Optional<String> responseUrl) {

    /** fal's states; anything else is {@code OTHER} and treated as not finished. */
    enum Phase {
        IN_QUEUE,
        IN_PROGRESS,
        COMPLETED,
        OTHER
    }

    static Optional<FalStatus> read(byte[] body) {
        return VendorJson.parse(body)
                .flatMap(root -> VendorJson.text(root, "status").map(raw -> of(root, raw)));
    }

    private static FalStatus of(JsonNode root, String raw) {
        Phase phase = switch (raw) {
            case "IN_QUEUE" -> Phase.IN_QUEUE;
            case "IN_PROGRESS" -> Phase.IN_PROGRESS;
            case "COMPLETED" -> Phase.COMPLETED;
            default -> Phase.OTHER;
        };
        Optional<String> error = VendorJson.text(root, "error").or(() -> VendorJson.text(root, "error_type"));
        return new FalStatus(phase, raw, error, VendorJson.text(root, "response_url"));
    }

    boolean failed() {
        return error.isPresent();
    }
}
