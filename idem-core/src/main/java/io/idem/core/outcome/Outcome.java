package io.idem.core.outcome;

import io.idem.core.domain.AttemptStatus;
import io.idem.core.domain.Billable;
import io.idem.core.text.Redactor;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The one classified result of one provider interaction (DESIGN §3). Every adapter maps every
 * response, or its absence, onto exactly one of these. Handle with an exhaustive {@code switch}.
 */
public sealed interface Outcome {

    /** HTTP status the provider answered with, or 0 when there was no answer. */
    int httpStatus();

    /** Whether this call may appear on the provider's invoice. */
    Billable billable();

    /** The wire name of the error class recorded on the attempt ({@code null} for success). */
    String errorClass();

    /** The vendor's request id when known. */
    Optional<String> providerRequestId();

    /**
     * The status of the attempt this outcome lands on: still open ({@code unconfirmed}) whenever
     * the call may have been served and we do not know.
     */
    default AttemptStatus attemptStatus() {
        return switch (this) {
            case Confirmed c -> AttemptStatus.SUCCEEDED;
            case Unavailable u -> AttemptStatus.FAILED;
            case Rejected r -> AttemptStatus.FAILED;
            case AdapterFault f -> f.mayHaveSent() ? AttemptStatus.UNCONFIRMED : AttemptStatus.FAILED;
            case Unconfirmed u -> AttemptStatus.UNCONFIRMED;
        };
    }

    /** The error code recorded on the attempt ({@code null} for success). */
    default String errorCode() {
        return switch (this) {
            case Confirmed c -> null;
            case Unavailable u -> u.code();
            case Rejected r -> r.code();
            case AdapterFault f -> "adapter_fault";
            case Unconfirmed u -> u.code();
        };
    }

    /**
     * This outcome with its code and message passed through {@code redactor}; the result, the
     * status and the request id are kept as they are.
     */
    default Outcome redactedBy(Redactor redactor) {
        return switch (this) {
            case Confirmed c -> c;
            case Unavailable u ->
                new Unavailable(
                        redactor.redact(u.code()),
                        redactor.redact(u.message()),
                        u.httpStatus(),
                        u.requestId(),
                        u.retryAfter());
            case Rejected r ->
                new Rejected(
                        r.kind(),
                        redactor.redact(r.code()),
                        redactor.redact(r.message()),
                        r.httpStatus(),
                        r.requestId(),
                        r.unusable());
            case AdapterFault f -> new AdapterFault(redactor.redact(f.message()), f.mayHaveSent());
            case Unconfirmed u ->
                new Unconfirmed(redactor.redact(u.code()), redactor.redact(u.message()), u.httpStatus(), u.requestId());
        };
    }

    /** The result is in hand (or a poll reported terminal success). */
    record Confirmed(GenerationResult result, int httpStatus, String requestId, BigDecimal costUsd) implements Outcome {
        public Confirmed {
            Objects.requireNonNull(result, "result");
        }

        @Override
        public Billable billable() {
            return Billable.YES;
        }

        @Override
        public String errorClass() {
            return null;
        }

        @Override
        public Optional<String> providerRequestId() {
            return Optional.ofNullable(requestId);
        }
    }

    /**
     * The provider could not serve this and did not start billable work: safe to try elsewhere.
     *
     * @param retryAfter how long the vendor asked us to stay away ({@code Retry-After} on a 429), if it said
     */
    record Unavailable(String code, String message, int httpStatus, String requestId, Optional<Duration> retryAfter)
            implements Outcome {
        public Unavailable {
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(retryAfter, "retryAfter");
        }

        /** An answer that says nothing about when to come back. */
        public Unavailable(String code, String message, int httpStatus, String requestId) {
            this(code, message, httpStatus, requestId, Optional.empty());
        }

        /** The same answer, with the vendor's {@code Retry-After}. */
        public Unavailable withRetryAfter(Optional<Duration> wait) {
            return new Unavailable(code, message, httpStatus, requestId, wait);
        }

        @Override
        public Billable billable() {
            return Billable.NO;
        }

        @Override
        public String errorClass() {
            return "unavailable";
        }

        @Override
        public Optional<String> providerRequestId() {
            return Optional.ofNullable(requestId);
        }
    }

    /**
     * The provider refused the request for a reason another try would not change.
     *
     * @param unusable the vendor said it cannot serve us at all (quota spent, bad credentials, model
     *     not found): a {@link RejectionKind#CONFIG} refusal that closes the provider for a while
     */
    record Rejected(RejectionKind kind, String code, String message, int httpStatus, String requestId, boolean unusable)
            implements Outcome {
        public Rejected {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(code, "code");
            if (unusable && kind != RejectionKind.CONFIG) {
                throw new IllegalArgumentException("only a configuration refusal makes a provider unusable");
            }
        }

        /** A refusal that says nothing about whether the provider can serve other calls. */
        public Rejected(RejectionKind kind, String code, String message, int httpStatus, String requestId) {
            this(kind, code, message, httpStatus, requestId, false);
        }

        /** The vendor answered that it cannot serve us: quota spent, credentials refused, model unknown. */
        public static Rejected unusable(String code, String message, int httpStatus, String requestId) {
            return new Rejected(RejectionKind.CONFIG, code, message, httpStatus, requestId, true);
        }

        /** The same refusal, said of this call only (a fault the caller asked a stand-in vendor to act out). */
        public Rejected ofThisCallOnly() {
            return new Rejected(kind, code, message, httpStatus, requestId, false);
        }

        @Override
        public Billable billable() {
            return Billable.NO;
        }

        @Override
        public String errorClass() {
            return kind.wire();
        }

        @Override
        public Optional<String> providerRequestId() {
            return Optional.ofNullable(requestId);
        }
    }

    /** A bug in our adapter. Billable is unknown if the request may have left. */
    record AdapterFault(String message, boolean mayHaveSent) implements Outcome {
        @Override
        public int httpStatus() {
            return 0;
        }

        @Override
        public Billable billable() {
            return mayHaveSent ? Billable.UNKNOWN : Billable.NO;
        }

        @Override
        public String errorClass() {
            return "adapter_fault";
        }

        @Override
        public Optional<String> providerRequestId() {
            return Optional.empty();
        }
    }

    /** The request may have been served and we do not know: park it, never retry it blindly. */
    record Unconfirmed(String code, String message, int httpStatus, String requestId) implements Outcome {
        public Unconfirmed {
            Objects.requireNonNull(code, "code");
        }

        @Override
        public Billable billable() {
            return Billable.UNKNOWN;
        }

        @Override
        public String errorClass() {
            return "unconfirmed";
        }

        @Override
        public Optional<String> providerRequestId() {
            return Optional.ofNullable(requestId);
        }
    }
}
