package io.idem.server.chat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.chat.AttemptResult;
import io.idem.core.chat.Chain;
import io.idem.core.chat.ChatAttempt;
import io.idem.core.chat.ChatModel;
import io.idem.core.chat.TokenUsage;
import io.idem.server.http.Json;
import java.util.List;
import java.util.Optional;

/**
 * The failover report (DESIGN §5): {@code idem.served_model}, {@code idem.requested_model}, the
 * fallback marks of a degraded answer, and for a multi-model chain {@code idem.failover.attempts[]}
 * with the {@code Idem-Served-Model} and {@code Idem-Attempts} headers saying the same.
 */
final class ChatReport {
    /** The short code of why an attempt ended as it did. */
    static String code(io.idem.core.outcome.Outcome outcome) {
        return switch (outcome) {
            case io.idem.core.outcome.Outcome.Unconfirmed u -> u.code();
            case io.idem.core.outcome.Outcome.Unavailable u -> u.code();
            case io.idem.core.outcome.Outcome.Rejected r -> r.code();
            case io.idem.core.outcome.Outcome.AdapterFault f -> "adapter_fault";
            case io.idem.core.outcome.Outcome.Confirmed c -> "confirmed";
        };
    }

    /** How a stream's serving attempt shows before it has ended. */
    static final String STREAMING = "streaming";

    private ChatReport() {}

    /**
     * @param servingNow the model serving a stream that has not ended yet (shown as {@code streaming})
     */
    static ObjectNode body(
            Chain chain,
            Optional<ChatModel> served,
            List<ChatAttempt> attempts,
            Optional<ChatModel> servingNow,
            Optional<String> degradationNotice) {
        ObjectNode idem = Json.MAPPER.createObjectNode();
        served.or(() -> servingNow).ifPresent(model -> idem.put("served_model", model.name()));
        idem.put("requested_model", chain.requestedModel());
        idem.put("spent_usd", ChatAttempt.spent(attempts).stripTrailingZeros().toPlainString());
        if (served.isPresent() || servingNow.isPresent()) {
            idem.put("is_fallback", degradationNotice.isPresent());
            degradationNotice.ifPresent(notice -> idem.put("degradation_notice", notice));
        }
        if (chain.multiModel()) {
            ArrayNode list = idem.putObject("failover").putArray("attempts");
            list.addAll(attempts(attempts));
            servingNow.ifPresent(model -> list.addObject()
                    .put("model", model.name())
                    .put("provider", model.provider())
                    .put("outcome", STREAMING));
        }
        return idem;
    }

    /** The attempts as the report lists them. */
    static ArrayNode attempts(List<ChatAttempt> attempts) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        attempts.forEach(attempt -> list.add(attempt(attempt)));
        return list;
    }

    private static ObjectNode attempt(ChatAttempt attempt) {
        var result = attempt.result();
        ObjectNode node = Json.MAPPER
                .createObjectNode()
                .put("model", attempt.model().name())
                .put("provider", attempt.model().provider())
                .put("outcome", result.outcome())
                .put("status", result.httpStatus())
                .put("latency_ms", attempt.latency().toMillis())
                .put("billable", result.billable().wire());
        result.errorCode().ifPresent(code -> node.put("error_code", code));
        result.reason().ifPresent(reason -> node.put("reason", reason.wire()));
        if (result.outcome().equals(AttemptResult.SKIPPED)) {
            result.message().ifPresent(why -> node.put("message", why));
        }
        return node;
    }

    /** {@code Idem-Attempts}: an RFC 8941 list, one member per attempt, e.g. {@code "fake-chat-a";provider="primary";outcome=unavailable;status=503;latency_ms=3;billable=no}. */
    static String header(List<ChatAttempt> attempts, Optional<ChatModel> servingNow) {
        StringBuilder out = new StringBuilder();
        for (ChatAttempt attempt : attempts) {
            var result = attempt.result();
            member(out, attempt.model())
                    .append(";outcome=")
                    .append(result.outcome())
                    .append(";status=")
                    .append(result.httpStatus())
                    .append(";latency_ms=")
                    .append(attempt.latency().toMillis())
                    .append(";billable=")
                    .append(result.billable().wire());
        }
        servingNow.ifPresent(model -> member(out, model).append(";outcome=").append(STREAMING));
        return out.toString();
    }

    private static StringBuilder member(StringBuilder out, ChatModel model) {
        if (!out.isEmpty()) {
            out.append(", ");
        }
        return out.append(quoted(model.name())).append(";provider=").append(quoted(model.provider()));
    }

    private static String quoted(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c >= 0x20 && c < 0x7f) {
                if (c == '"' || c == '\\') {
                    out.append('\\');
                }
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    /** Marks the report {@code usage_estimated: true} when the answer's usage is Idem's estimate, not the vendor's. */
    static void labelEstimate(ObjectNode idem, TokenUsage usage) {
        if (usage.estimated()) {
            idem.put("usage_estimated", true);
        }
    }
}
