package io.idem.core.chat;

import io.idem.core.outcome.Outcome;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A model refused the prompt as too long for its context window: the chain goes on to a model
 * that may take it and skips those known not to ({@code context_window} not larger than the
 * refusing model's, or smaller than the prompt's estimated tokens). A model without a configured
 * window is tried: nothing says it is too small.
 *
 * @param refusedBy the model that refused
 * @param promptTokens the prompt's estimated size (four characters a token)
 */
record ContextRefusal(ChatModel refusedBy, Outcome outcome, long promptTokens) {
    /** The {@code error_code} of a model skipped for its window. */
    static final String TOO_SMALL = "context_too_small";

    /** The refusal {@code outcome} is, if it is one. */
    static Optional<ContextRefusal> of(Outcome outcome, ChatModel model, ChatRequest request) {
        if (outcome == null || !ContextLength.CODE.equals(AttemptOutcomes.code(outcome))) {
            return Optional.empty();
        }
        return Optional.of(new ContextRefusal(model, outcome, AttemptOutcomes.estimatedPromptTokens(request)));
    }

    /** Why {@code candidate} would refuse the prompt too, or empty when it may take it. */
    Optional<String> tooSmall(ChatModel candidate) {
        OptionalLong window = candidate.contextWindow();
        if (window.isEmpty()) {
            return Optional.empty();
        }
        OptionalLong refused = refusedBy.contextWindow();
        if (refused.isPresent() && window.getAsLong() <= refused.getAsLong()) {
            return Optional.of("not called: its context_window of " + window.getAsLong()
                    + " tokens is not larger than the " + refused.getAsLong() + " of " + refusedBy.name()
                    + ", which refused the prompt as too long");
        }
        if (window.getAsLong() < promptTokens) {
            return Optional.of("not called: its context_window of " + window.getAsLong()
                    + " tokens is smaller than the prompt's estimated " + promptTokens + " tokens, which "
                    + refusedBy.name() + " refused as too long");
        }
        return Optional.empty();
    }
}
