package io.idem.providers.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.chat.ContextLength;
import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import io.idem.providers.http.VendorText;
import java.util.Set;

/**
 * Classifies a non-200 answer of an OpenAI-compatible chat API (vendor-apis.md §2, DESIGN §3).
 * Unlike images, an error answer to a chat completion delivered no tokens, so nothing is billed:
 * every 5xx and 429 is {@code Unavailable}. Quota exhaustion, 401/403/404 and an unknown model or key
 * are our configuration, and say the provider cannot serve us: unusable (it is closed for a while);
 * a 400 is the request's fault, or policy when the vendor says so, or a prompt too long for the
 * model's context ({@link ContextLength#CODE}, which another model may take). Thread-safe.
 */
final class ChatErrors {
    static final Set<String> QUOTA =
            Set.of("insufficient_quota", "billing_hard_limit_reached", "credit_balance_exhausted");
    static final Set<String> POLICY = Set.of("content_policy_violation", "content_filter", "moderation_blocked");
    static final Set<String> CONFIG = Set.of("model_not_found", "invalid_api_key");

    private ChatErrors() {}

    static Outcome classify(int status, byte[] body, String requestId, VendorText text) {
        JsonNode error = ChatJson.parse(body).map(root -> root.path("error")).orElse(ChatJson.MISSING);
        String code = name(error).orElse("http_" + status);
        String message = text.safe(
                error.path("message").isTextual() ? error.path("message").asText() : "HTTP " + status);
        if (QUOTA.contains(code)) {
            return Outcome.Rejected.unusable(code, message, status, requestId);
        }
        if ((status == 400 || status == 413 || status == 422) && ContextLength.refused(code, raw(error))) {
            // a larger model may take the prompt: a failover reason of its own (context_length)
            return new Outcome.Rejected(RejectionKind.USER_ERROR, ContextLength.CODE, message, status, requestId);
        }
        return switch (status) {
            case 400, 422 ->
                POLICY.contains(code)
                        ? new Outcome.Rejected(RejectionKind.POLICY, code, message, status, requestId)
                        : CONFIG.contains(code)
                                ? Outcome.Rejected.unusable(code, message, status, requestId)
                                : new Outcome.Rejected(RejectionKind.USER_ERROR, code, message, status, requestId);
            case 401, 403, 404 -> Outcome.Rejected.unusable(code, message, status, requestId);
            default -> new Outcome.Unavailable(code, message, status, requestId);
        };
    }

    private static String raw(JsonNode error) {
        return error.path("message").isTextual() ? error.path("message").asText() : null;
    }

    private static java.util.Optional<String> name(JsonNode error) {
        if (error.path("code").isTextual()) {
            return java.util.Optional.of(error.path("code").asText());
        }
        if (error.path("type").isTextual()) {
            return java.util.Optional.of(error.path("type").asText());
        }
        return java.util.Optional.empty();
    }
}
