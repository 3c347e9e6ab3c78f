package io.idem.providers.veo;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.providers.http.VendorJson;
import io.idem.providers.http.VendorText;
import java.util.Optional;

/**
 * Maps the Gemini API's refusals, {@code {"error":{"code":429,"message":"…","status":
 * "RESOURCE_EXHAUSTED"}}}, and a failed operation's {@code error} ({@code code} a google.rpc code),
 * onto outcomes. A submit whose answer may have come after the operation started is {@code
 * Unconfirmed}, and stays so: the operation's name was in the lost answer. Thread-safe.
 */
final class VeoErrors {
    private VeoErrors() {}

    /** A submit answered with {@code status} and {@code body}. */
    static Outcome refused(int status, byte[] body, VendorText text) {
        JsonNode error = VendorJson.parse(body).map(root -> root.path("error")).orElse(VendorJson.MAPPER.missingNode());
        String name = VendorJson.text(error, "status").orElse("");
        String detail = "Gemini API answered HTTP " + status + (name.isEmpty() ? "" : " " + name) + ": "
                + text.safe(VendorJson.text(error, "message").orElse("(no message)"));
        return switch (status) {
            case 400 ->
                "FAILED_PRECONDITION".equals(name)
                        ? rejected(RejectionKind.CONFIG, "failed_precondition", detail, status)
                        : rejected(RejectionKind.USER_ERROR, "invalid_request", detail, status);
            case 401, 403 -> rejected(RejectionKind.CONFIG, "invalid_credentials", detail, status);
            case 404 -> rejected(RejectionKind.CONFIG, "not_found", detail, status);
            case 429 -> new Outcome.Unavailable("rate_limited", detail, status, null);
            case 503 -> new Outcome.Unavailable("provider_unavailable", detail, status, null);
            default ->
                status >= 400 && status < 500
                        ? rejected(RejectionKind.USER_ERROR, "invalid_request", detail, status)
                        : new Outcome.Unconfirmed("server_error", detail + LOST, status, null);
        };
    }

    /** Why an unconfirmed Veo submit parks. */
    static final String LOST = "; the operation's name was not received, so it cannot be looked up (operator)";

    /** A finished operation's {@code error}. */
    static Outcome failed(String operation, JsonNode error, VendorText text) {
        int code = error.path("code").asInt(2);
        String detail = "Veo operation " + operation + " failed (code " + code + "): "
                + text.safe(VendorJson.text(error, "message").orElse("(no message)"));
        return switch (code) {
            case 3, 11 -> new Outcome.Rejected(RejectionKind.USER_ERROR, "invalid_request", detail, 200, operation);
            case 7, 9, 16 -> new Outcome.Rejected(RejectionKind.CONFIG, "operation_refused", detail, 200, operation);
            default -> new Outcome.Unavailable("operation_failed", detail, 200, operation);
        };
    }

    /** Samples filtered by safety: nothing delivered, nothing billed. */
    static Optional<Outcome> filtered(String operation, JsonNode videoResponse, VendorText text) {
        if (videoResponse.path("raiMediaFilteredCount").asInt(0) <= 0) {
            return Optional.empty();
        }
        return Optional.of(new Outcome.Rejected(
                RejectionKind.POLICY,
                "content_policy_violation",
                "Veo filtered the clip: "
                        + text.safe(
                                videoResponse.path("raiMediaFilteredReasons").toString()),
                200,
                operation));
    }

    private static Outcome rejected(RejectionKind kind, String code, String detail, int status) {
        return new Outcome.Rejected(kind, code, detail, status, null);
    }
}
