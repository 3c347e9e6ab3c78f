package io.idem.core.chat;

import java.util.Objects;

/**
 * Why a chain ended without an answer, as the HTTP layer should say it.
 *
 * @param status the HTTP status: the vendor's 4xx for a rejection, 500 for our own bug, else 429
 *     (every failure a rate limit) or 502
 * @param code {@code all_models_failed}, or the rejection's own code
 */
public record ChainFailure(Kind kind, int status, String code, String message) {
    /** The three ways a chain fails. */
    public enum Kind {
        /** The request was refused (validation, policy): never another model. */
        REJECTED,
        /** A bug in an adapter: never another model, since the call may have left. */
        ADAPTER_FAULT,
        /** Every model tried failed, or failover was not allowed to go on. */
        ALL_FAILED
    }

    public static final String ALL_MODELS_FAILED = "all_models_failed";

    public ChainFailure {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("a chain failure needs an error status, was " + status);
        }
    }
}
