package io.idem.core.chat;

import io.idem.core.outcome.Outcome;

/** One attempt's end: a success to return (a served result or a locked stream), or a failure to decide on. */
record AttemptEnd(Object success, ChatAttempt failed, Outcome outcome, boolean interrupted) {
    static AttemptEnd succeeded(Object success) {
        return new AttemptEnd(success, null, null, false);
    }

    static AttemptEnd failed(ChatAttempt attempt, Outcome outcome) {
        return new AttemptEnd(null, attempt, outcome, false);
    }
}
