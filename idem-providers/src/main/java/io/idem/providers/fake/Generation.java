package io.idem.providers.fake;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;

/**
 * One generation the fake vendor received. Immutable: a change of status is a new value, swapped in
 * atomically by {@link GenerationBook}.
 *
 * @param costUsd what the generation costs once billed
 * @param billedAt when it went onto the invoice, or {@code null} while it is not on it
 */
record Generation(String id, GenerationRequest request, GenerationStatus status, BigDecimal costUsd, Instant billedAt) {

    Generation {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(costUsd, "costUsd");
        if (billedAt != null && status != GenerationStatus.SUCCEEDED) {
            throw new IllegalArgumentException("only a succeeded generation is billed, " + id + " is " + status);
        }
    }

    boolean billed() {
        return billedAt != null;
    }

    /** Moves to {@code next}; success bills at {@code now}, every other end un-bills. */
    Generation become(GenerationStatus next, Instant now) {
        if (!status.canBecome(next)) {
            throw new IllegalStateException("generation " + id + " cannot go from " + status + " to " + next);
        }
        return new Generation(id, request, next, costUsd, next == GenerationStatus.SUCCEEDED ? now : null);
    }

    LedgerEntry ledgerEntry() {
        if (!billed()) {
            throw new IllegalStateException("generation " + id + " is not billed");
        }
        return new LedgerEntry(id, request.reference(), request.model(), costUsd, billedAt);
    }
}
