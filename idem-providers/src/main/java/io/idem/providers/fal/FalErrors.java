package io.idem.providers.fal;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.providers.http.VendorJson;
import io.idem.providers.http.VendorText;
import java.net.http.HttpHeaders;
import java.util.Optional;

/**
 * Maps fal's error answers onto outcomes (vendor-apis §3 "Mapping"). fal has two error shapes:
 * model errors {@code {"detail":[{"loc","msg","type"}]}} (branch on {@code type}, never on the
 * text) and infrastructure errors {@code {"detail":"…","error_type":"…"}} (also in the {@code
 * X-Fal-Error-Type} header). The vendor's code is kept on the outcome.
 */
final class FalErrors {
    static final String POLICY_TYPE = "content_policy_violation";

    private FalErrors() {}

    /** What one error answer says: the vendor's code, its words, and whether it is a policy refusal. */
    record VendorError(String code, String message, boolean policy) {}

    static VendorError read(int status, byte[] body, HttpHeaders headers, VendorText text) {
        Optional<JsonNode> root = VendorJson.parse(body);
        String fallback = headers.firstValue("X-Fal-Error-Type").orElse("http_" + status);
        if (root.isEmpty()) {
            return new VendorError(fallback, "HTTP " + status, false);
        }
        JsonNode detail = root.get().path("detail");
        if (detail.isArray() && !detail.isEmpty()) {
            boolean policy = false;
            for (JsonNode item : detail) {
                policy |= VendorJson.text(item, "type")
                        .filter(POLICY_TYPE::equals)
                        .isPresent();
            }
            JsonNode first = detail.get(0);
            String code = policy ? POLICY_TYPE : VendorJson.text(first, "type").orElse(fallback);
            String message = VendorJson.text(first, "msg").map(text::safe).orElse("HTTP " + status);
            return new VendorError(code, message, policy);
        }
        String code = VendorJson.text(root.get(), "error_type").orElse(fallback);
        String message = detail.isTextual() ? text.safe(detail.asText()) : "HTTP " + status;
        return new VendorError(code, message, POLICY_TYPE.equals(code));
    }

    /** A non-2xx answer to the submit POST: nothing was queued, so nothing was billed. */
    static Outcome submitRefused(int status, byte[] body, HttpHeaders headers, VendorText text) {
        VendorError error = read(status, body, headers, text);
        String requestId = headers.firstValue("x-fal-request-id").orElse(null);
        return switch (status) {
            case 400, 422 -> rejectedInput(status, error, requestId);
            case 401, 403, 404 -> Outcome.Rejected.unusable(error.code(), error.message(), status, requestId);
            case 429 -> new Outcome.Unavailable(error.code(), error.message(), status, requestId);
            default ->
                status >= 500 && status <= 599
                        // fal: "Server errors (HTTP 500+) are never charged".
                        ? new Outcome.Unavailable(error.code(), error.message(), status, requestId)
                        : new Outcome.Unconfirmed(
                                "unexpected_status",
                                "unexpected HTTP " + status + " on submit: " + error.message(),
                                status,
                                requestId);
        };
    }

    /**
     * The result of a request fal reports COMPLETED with an error. 422s may have been billed (fal:
     * "may still be charged if a runner spent GPU time"); 5xx never are.
     */
    static Outcome requestFailed(int status, byte[] body, HttpHeaders headers, String requestId, VendorText text) {
        VendorError error = read(status, body, headers, text);
        if (status == 400 || status == 422) {
            return rejectedInput(status, error, requestId);
        }
        if (status >= 500 && status <= 599) {
            return new Outcome.Unavailable(error.code(), error.message(), status, requestId);
        }
        return new Outcome.Unconfirmed(
                "unexpected_status", "result answered HTTP " + status + ": " + error.message(), status, requestId);
    }

    private static Outcome rejectedInput(int status, VendorError error, String requestId) {
        RejectionKind kind = error.policy() ? RejectionKind.POLICY : RejectionKind.USER_ERROR;
        return new Outcome.Rejected(kind, error.code(), error.message(), status, requestId);
    }
}
