package io.idem.providers.fake;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.outcome.GenerationResult;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.core.pricing.PricingModel;
import io.idem.core.pricing.Usage;
import io.idem.providers.http.VendorJson;
import io.idem.providers.http.VendorText;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.util.Optional;

/**
 * Classifies the fake vendor's answer to a generation POST (DESIGN §3). The fake vendor promises
 * that every error status, 5xx included, bills nothing; a real vendor's adapter must decide 5xx per
 * vendor (an OpenAI 500 on images, for one, is unconfirmed).
 */
final class FakeAnswerReader {
    private FakeAnswerReader() {}

    /** Throws only on a bug (an unexpected runtime exception), which the adapter turns into a fault. */
    static Outcome read(HttpResponse<byte[]> response, PricingModel pricing, VendorText text) {
        int status = response.statusCode();
        String requestId = response.headers().firstValue("X-Request-Id").orElse(null);
        if (status == 200) {
            return success(response.body(), requestId, pricing);
        }
        byte[] body = response.body();
        Optional<String> code = FakeGenerationJson.errorField(body, "code");
        String message =
                FakeGenerationJson.errorField(body, "message").map(text::safe).orElse("HTTP " + status);
        if (status == 429) {
            return new Outcome.Unavailable("rate_limited", message, status, requestId);
        }
        if (status >= 500 && status <= 599) {
            return new Outcome.Unavailable("http_" + status, message, status, requestId);
        }
        if (status == 400 || status == 422) {
            RejectionKind kind = code.filter("content_policy_violation"::equals).isPresent()
                    ? RejectionKind.POLICY
                    : RejectionKind.USER_ERROR;
            return new Outcome.Rejected(kind, code.orElse("invalid_request"), message, status, requestId);
        }
        if (status == 401 || status == 403 || status == 404) {
            // the fake vendor acts these out per call (simulate): they never close the provider as unusable
            return new Outcome.Rejected(
                    RejectionKind.CONFIG, code.orElse("http_" + status), message, status, requestId);
        }
        if (status == 409 && code.filter("canceled"::equals).isPresent()) {
            // We (or an operator) canceled it while it ran; the vendor took it off the invoice.
            return new Outcome.Unavailable("canceled", message, status, requestId);
        }
        // A status this vendor never sends: we cannot tell what it did, so we must not assume.
        return new Outcome.Unconfirmed(
                "unexpected_status", "unexpected HTTP " + status + ": " + message, status, requestId);
    }

    private static Outcome success(byte[] body, String headerId, PricingModel pricing) {
        Optional<JsonNode> root = VendorJson.parse(body);
        String requestId = headerId != null
                ? headerId
                : root.flatMap(r -> VendorJson.text(r, "id")).orElse(null);
        // A synchronous answer carries its id on the outcome, saved with it in one commit; reporting
        // it early as well would cost a commit per job for nothing.
        Optional<GenerationResult> result = root.flatMap(FakeGenerationJson::images);
        if (result.isEmpty()) {
            String why = root.isEmpty() ? "200 with an unreadable body" : "200 without a readable image";
            return new Outcome.Unavailable("malformed_response", why, 200, requestId);
        }
        BigDecimal cost = root.flatMap(FakeGenerationJson::cost)
                .orElseGet(() -> pricing.cost(Usage.images(result.get().media().size())));
        return new Outcome.Confirmed(result.get(), 200, requestId, cost);
    }
}
