package io.idem.core.chat;

import io.idem.core.budget.BudgetScope;
import io.idem.core.budget.CostCeiling;
import io.idem.core.budget.Hold;
import io.idem.core.engine.ProviderGate;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * Whether a chat attempt may cost what it is expected to: the call's own ceiling ({@code
 * max_cost_usd}) over its attempts so far, then a hold of the expected cost on the provider's and
 * the key's budgets (after the gate has admitted the model). The expected cost is the estimated
 * prompt plus {@code max_tokens} of completion ({@value #UNBOUNDED_COMPLETION_TOKENS} when the
 * caller set none). Thread-safe; a call's attempts run one at a time.
 */
final class ChatSpending {
    /** Completion tokens a call without {@code max_tokens} is expected to cost. */
    static final int UNBOUNDED_COMPLETION_TOKENS = 1024;
    /** How long after an attempt's own timeout an unsettled hold waits for the sweeper. */
    static final Duration GRACE = Duration.ofMinutes(1);

    private final ProviderGate gate;

    ChatSpending(ProviderGate gate) {
        this.gate = gate;
    }

    /** What became of asking to try one model. */
    sealed interface Verdict {
        /** The call may go out; {@code hold} waits to be settled when present. */
        record Go(Optional<UUID> hold) implements Verdict {}

        /** This model is skipped for {@code reason}; the next may still go. */
        record Skip(String reason) implements Verdict {}

        /** No model may go: the key's budget is spent (a gateway block). */
        record Block(ChainFailure failure) implements Verdict {}
    }

    static BigDecimal expected(ChatModel model, ChatRequest request) {
        int completion = request.maxTokens() > 0 ? request.maxTokens() : UNBOUNDED_COMPLETION_TOKENS;
        return model.cost(TokenUsage.estimate(AttemptOutcomes.estimatedPromptTokens(request), completion));
    }

    /** The ceiling, before the gate: a model past it never takes the breaker's probe. */
    static Optional<String> overCeiling(AttemptBook book, ChatModel model, ChatRequest request) {
        boolean fits = CostCeiling.fits(
                book.caller().maxCostUsd(), ChatAttempt.spent(book.attempts()), expected(model, request));
        return fits ? Optional.empty() : Optional.of(CostCeiling.OVER);
    }

    /** The hold, after the gate admitted {@code model} for an attempt of at most {@code timeout}. */
    Verdict hold(AttemptBook book, ChatModel model, ChatRequest request, Duration timeout) {
        ChatCaller caller = book.caller();
        UUID id = UUID.randomUUID();
        Optional<UUID> key = caller.keyBudgeted() ? caller.apiKeyId() : Optional.empty();
        return switch (gate.hold(
                id, model.provider(), Optional.empty(), key, expected(model, request), timeout.plus(GRACE))) {
            case Hold.Held held -> new Verdict.Go(Optional.of(id));
            case Hold.Uncapped uncapped -> new Verdict.Go(Optional.empty());
            case Hold.Refused refused -> refused(refused);
        };
    }

    /** A provider without room is skipped; a key without room ends the call with 429 (a gateway block). */
    private static Verdict refused(Hold.Refused refused) {
        if (refused.scope() == BudgetScope.PROVIDER) {
            return new Verdict.Skip(refused.scope().reason());
        }
        return new Verdict.Block(new ChainFailure(
                ChainFailure.Kind.REJECTED,
                429,
                refused.scope().reason(),
                "this key has no room left in its " + refused.scope().period() + " budget of "
                        + refused.capUsd().toPlainString() + " USD"));
    }
}
