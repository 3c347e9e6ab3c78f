package io.idem.providers.openai;

import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.providers.http.VendorText;
import java.time.Duration;
import java.util.Set;

/**
 * Classifies every non-200 answer to an image generation (DESIGN §3, vendor-apis.md §1). The
 * vendor's error code (else its type, else {@code http_<status>}) becomes the outcome's code.
 *
 * <p>The line that matters for billing: OpenAI promises no refund for a 5xx on images, so a 500,
 * 502 or 504 (and any status this table does not know) is {@code Unconfirmed}. Only a prompt 503
 * (overloaded, refused at the door) and a 429 are safe to fail over. Thread-safe.
 */
final class OpenAiErrorReader {
    /** Billing exhausted: another try here won't help, failing over is fine. */
    static final Set<String> QUOTA =
            Set.of("insufficient_quota", "billing_hard_limit_reached", "credit_balance_exhausted");
    /** The safety system refused the prompt (dall-e) or the input or output (GPT image). */
    static final Set<String> POLICY = Set.of("content_policy_violation", "moderation_blocked");

    private final Duration promptRefusal;

    OpenAiErrorReader(Duration promptRefusal) {
        this.promptRefusal = promptRefusal;
    }

    Outcome classify(int status, byte[] body, String requestId, Duration answeredAfter, VendorText text) {
        OpenAiError error = OpenAiError.parse(body);
        String code = error.name().orElse("http_" + status);
        String message = text.safe(error.message().orElse("HTTP " + status));
        if (error.named(QUOTA)) {
            return Outcome.Rejected.unusable(code, message, status, requestId);
        }
        return switch (status) {
            case 400, 422 -> badRequest(error, code, message, status, requestId);
            case 401, 403, 404 -> Outcome.Rejected.unusable(code, message, status, requestId);
            case 429 -> new Outcome.Unavailable(code, message, status, requestId);
            case 503 ->
                answeredAfter.compareTo(promptRefusal) <= 0
                        ? new Outcome.Unavailable(code, message, status, requestId)
                        : new Outcome.Unconfirmed(
                                code,
                                "503 only after " + answeredAfter.toMillis() + " ms, when work may have run: "
                                        + message,
                                status,
                                requestId);
            // 500, 502, 504 and any status this vendor is not known to send: it may have generated
            // (and billed) before failing, and nothing tells us otherwise.
            default -> new Outcome.Unconfirmed(code, "HTTP " + status + ": " + message, status, requestId);
        };
    }

    private static Outcome badRequest(OpenAiError error, String code, String message, int status, String requestId) {
        if (error.named(POLICY)) {
            // Output moderation means the image was made, then withheld: say so for the audit,
            // since a rejection cannot carry "billable: unknown" (docs/providers-openai-runware.md).
            String text = error.moderationStage().filter("output"::equals).isPresent()
                    ? "blocked by output moderation after the image was generated (billing unknown): " + message
                    : message;
            return new Outcome.Rejected(RejectionKind.POLICY, code, text, status, requestId);
        }
        if (error.named(Set.of("model_not_found"))) {
            return Outcome.Rejected.unusable(code, message, status, requestId);
        }
        return new Outcome.Rejected(RejectionKind.USER_ERROR, code, message, status, requestId);
    }
}
