package io.idem.core.chat;

import io.idem.core.domain.Billable;
import io.idem.core.outcome.GenerationResult;
import io.idem.core.outcome.Outcome;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/** Turns adapter outcomes into attempt results, with cost, and back into a gate {@link Outcome}. */
final class AttemptOutcomes {
    private AttemptOutcomes() {}

    static String wire(Outcome outcome) {
        return switch (outcome) {
            case Outcome.Confirmed c -> AttemptResult.SERVED;
            case Outcome.Unavailable u -> "unavailable";
            case Outcome.Rejected r -> "rejected";
            case Outcome.Unconfirmed u -> "unconfirmed";
            case Outcome.AdapterFault f -> "adapter_fault";
        };
    }

    /** A failure: nothing billed unless it may have been served, then the cost at risk. */
    static AttemptResult failed(Outcome outcome, ChatModel model, TokenUsage seen) {
        Billable billable = outcome.billable();
        BigDecimal cost = billable == Billable.NO ? BigDecimal.ZERO : model.cost(seen);
        return new AttemptResult(
                wire(outcome),
                Optional.ofNullable(code(outcome)),
                Optional.ofNullable(message(outcome)),
                outcome.httpStatus(),
                outcome.providerRequestId(),
                billable == Billable.NO ? TokenUsage.NONE : seen,
                billable,
                cost,
                FailoverRule.reasonOf(outcome),
                outcome instanceof Outcome.Unavailable u ? u.retryAfter() : Optional.empty());
    }

    static AttemptResult served(ChatModel model, TokenUsage usage, Optional<String> requestId) {
        return new AttemptResult(
                AttemptResult.SERVED,
                Optional.empty(),
                Optional.empty(),
                200,
                requestId,
                usage,
                Billable.YES,
                model.cost(usage),
                Optional.empty(),
                Optional.empty());
    }

    static AttemptResult skipped(String reason, String why) {
        return new AttemptResult(
                AttemptResult.SKIPPED,
                Optional.of(reason),
                Optional.of(why),
                0,
                Optional.empty(),
                TokenUsage.NONE,
                Billable.NO,
                BigDecimal.ZERO,
                Optional.empty(),
                Optional.empty());
    }

    /** The outcome the provider gate learns from: a served answer is a confirmed result. */
    static Outcome confirmed(String text, Optional<String> requestId, BigDecimal cost) {
        var media = new GenerationResult.Media(text.getBytes(StandardCharsets.UTF_8), "text/plain");
        return new Outcome.Confirmed(new GenerationResult(List.of(media)), 200, requestId.orElse(null), cost);
    }

    static String code(Outcome outcome) {
        return switch (outcome) {
            case Outcome.Confirmed c -> null;
            case Outcome.Unavailable u -> u.code();
            case Outcome.Rejected r -> r.code();
            case Outcome.Unconfirmed u -> u.code();
            case Outcome.AdapterFault f -> "adapter_fault";
        };
    }

    static String message(Outcome outcome) {
        return switch (outcome) {
            case Outcome.Confirmed c -> null;
            case Outcome.Unavailable u -> u.message();
            case Outcome.Rejected r -> r.message();
            case Outcome.Unconfirmed u -> u.message();
            case Outcome.AdapterFault f -> f.message();
        };
    }

    /** A rough prompt size for calls the vendor never counted: four characters a token. */
    static long estimatedPromptTokens(ChatRequest request) {
        long chars = 0;
        for (ChatMessage message : request.messages()) {
            chars += message.content().length();
        }
        return (chars + 3) / 4;
    }
}
