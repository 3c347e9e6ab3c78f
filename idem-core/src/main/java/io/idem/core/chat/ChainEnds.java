package io.idem.core.chat;

import io.idem.core.outcome.Outcome;
import java.util.List;

/** How a chain that ended without an answer is reported: a rejection passed on, our fault, or all failed. */
final class ChainEnds {
    private ChainEnds() {}

    static ChainResult.Failed finalFailure(AttemptBook book, Outcome outcome) {
        ChainFailure failure = switch (outcome) {
            case Outcome.Rejected r -> {
                // The vendor's 4xx says what was wrong with the request; its 401/403 would read as
                // the caller's own key being refused, so those (never reached: CONFIG fails over) say 400.
                boolean passOn =
                        r.httpStatus() >= 400 && r.httpStatus() < 500 && r.httpStatus() != 401 && r.httpStatus() != 403;
                yield new ChainFailure(
                        ChainFailure.Kind.REJECTED,
                        passOn ? r.httpStatus() : 400,
                        r.code(),
                        r.message() == null ? r.code() : r.message());
            }
            case Outcome.AdapterFault f ->
                new ChainFailure(ChainFailure.Kind.ADAPTER_FAULT, 500, "adapter_fault", f.message());
            case Outcome.Confirmed c -> throw new IllegalStateException("a confirmed outcome is not a failure");
            case Outcome.Unavailable u -> throw new IllegalStateException("unavailable always has a reason");
            case Outcome.Unconfirmed u -> throw new IllegalStateException("unconfirmed always has a reason");
        };
        return new ChainResult.Failed(failure, book.attempts());
    }

    static ChainResult.Failed allFailed(AttemptBook book, String why) {
        List<ChatAttempt> attempts = book.attempts();
        int status = FailoverRule.allFailedStatus(
                attempts.stream().map(a -> a.result().reason()).toList());
        String message = attempts.size() == 1
                ? "the model failed: " + describe(attempts.getFirst()) + " (" + why + ")"
                : "every model tried failed (" + why + ")";
        return new ChainResult.Failed(
                new ChainFailure(ChainFailure.Kind.ALL_FAILED, status, ChainFailure.ALL_MODELS_FAILED, message),
                attempts);
    }

    private static String describe(ChatAttempt attempt) {
        return attempt.result().outcome()
                + attempt.result().errorCode().map(c -> " " + c).orElse("");
    }

    static String stopReason(Outcome outcome, Chain chain, ChatCaller caller, boolean modelLeft, boolean timeLeft) {
        Trigger reason = FailoverRule.reasonOf(outcome).orElseThrow();
        if (!chain.on().contains(reason)) {
            return reason.wire() + " is not in redundancy.on";
        }
        if (outcome instanceof Outcome.Unconfirmed && caller.unconfirmed() == UnconfirmedPolicy.STOP) {
            return "lane '" + caller.lane() + "' stops on unconfirmed attempts";
        }
        if (!modelLeft) {
            return "no model left";
        }
        return timeLeft ? "stopped" : "the chain's deadline passed";
    }
}
