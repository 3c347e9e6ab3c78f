package io.idem.core.chat;

import io.idem.core.outcome.Outcome;
import io.idem.core.outcome.RejectionKind;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a failed attempt lets the chain go on (DESIGN §5, issue 7). Pure and thread-safe.
 *
 * <p>Only a failure whose reason is in {@code on} fails over, and only while a model remains and
 * the deadline has not passed. Never: a validation or policy rejection (another model would refuse
 * the same prompt, or must not see it) and a bug in our adapter. An answer that may have been
 * served ({@code Unconfirmed}) goes on only when the lane's policy is {@code failover}. A vendor's
 * configuration refusal (401/403, unknown model, missing key) counts as a server error: the caller
 * did nothing wrong and another provider may well serve it. A prompt refused as too long for the
 * model's context window ({@link ContextLength#CODE}) is {@link Trigger#CONTEXT_LENGTH}: a larger
 * model may take it.
 */
public final class FailoverRule {
    private static final Set<String> TIMEOUT_CODES =
            Set.of("timeout", "read_timeout", "first_token_timeout", "timeout_before_send", "deadline_exceeded");

    private FailoverRule() {}

    /** What happens after a failed attempt. */
    public enum Verdict {
        /** Try the next model. */
        FAIL_OVER,
        /** A reason that may fail over, but {@code on} excludes it, the lane stops on unknowns, or
         * nothing is left: the chain ends as failed. */
        STOP,
        /** A failure that must never fail over: a rejection of the request, or our own bug. */
        FINAL
    }

    /** Why an outcome failed, in {@code on}'s vocabulary; empty for outcomes that never fail over. */
    public static Optional<Trigger> reasonOf(Outcome outcome) {
        return switch (outcome) {
            case Outcome.Confirmed c -> Optional.empty();
            case Outcome.AdapterFault f -> Optional.empty();
            case Outcome.Rejected r when r.kind() == RejectionKind.CONFIG -> Optional.of(Trigger.SERVER_ERROR);
            case Outcome.Rejected r when ContextLength.CODE.equals(r.code()) -> Optional.of(Trigger.CONTEXT_LENGTH);
            case Outcome.Rejected r -> Optional.empty();
            case Outcome.Unavailable u -> Optional.of(unavailableReason(u.code(), u.httpStatus()));
            case Outcome.Unconfirmed u -> Optional.of(unconfirmedReason(u.code(), u.httpStatus()));
        };
    }

    private static Trigger unavailableReason(String code, int status) {
        if (status == 429 || code.startsWith("rate_limit")) {
            return Trigger.RATE_LIMIT;
        }
        if (TIMEOUT_CODES.contains(code)) {
            return Trigger.TIMEOUT;
        }
        return status == 0 ? Trigger.CONNECTION_ERROR : Trigger.SERVER_ERROR;
    }

    private static Trigger unconfirmedReason(String code, int status) {
        if (TIMEOUT_CODES.contains(code)) {
            return Trigger.TIMEOUT;
        }
        if (status == 429) {
            return Trigger.RATE_LIMIT;
        }
        return status >= 500 || code.equals("stream_error") ? Trigger.SERVER_ERROR : Trigger.CONNECTION_ERROR;
    }

    /**
     * @param modelLeft whether the chain has another model after this one
     * @param timeLeft whether the chain's deadline still leaves time for another attempt
     */
    public static Verdict decide(
            Outcome outcome, Set<Trigger> on, UnconfirmedPolicy unconfirmed, boolean modelLeft, boolean timeLeft) {
        Optional<Trigger> reason = reasonOf(outcome);
        if (reason.isEmpty()) {
            return Verdict.FINAL;
        }
        if (!on.contains(reason.get())) {
            return Verdict.STOP;
        }
        if (outcome instanceof Outcome.Unconfirmed && unconfirmed == UnconfirmedPolicy.STOP) {
            return Verdict.STOP;
        }
        return modelLeft && timeLeft ? Verdict.FAIL_OVER : Verdict.STOP;
    }

    /**
     * The status of a chain that ended without an answer after retryable failures: 429 when every
     * failure was a rate limit, else 502 (issue 7).
     */
    public static int allFailedStatus(java.util.List<Optional<Trigger>> failureReasons) {
        boolean allRateLimited = !failureReasons.isEmpty()
                && failureReasons.stream()
                        .allMatch(r -> r.filter(Trigger.RATE_LIMIT::equals).isPresent());
        return allRateLimited ? 429 : 502;
    }
}
