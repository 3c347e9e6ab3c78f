package io.idem.core.chat;

import io.idem.core.outcome.Outcome;

/**
 * One attempt's end: a success to return ({@code S}: a served result for a plain call, a locked
 * stream for a streaming one), or a failure to decide on.
 */
record AttemptEnd<S>(S success, ChatAttempt failed, Outcome outcome, boolean interrupted) {
    static <S> AttemptEnd<S> succeeded(S success) {
        return new AttemptEnd<>(success, null, null, false);
    }

    static <S> AttemptEnd<S> failed(ChatAttempt attempt, Outcome outcome) {
        return new AttemptEnd<>(null, attempt, outcome, false);
    }
}
