package io.idem.core.spi;

import io.idem.core.outcome.Outcome;

/**
 * One vendor's protocol, mapped onto Idem's outcome classification (DESIGN §3).
 *
 * <p>Contract: {@link #generate} never throws for anything the vendor or the network does; it
 * returns the classified {@link Outcome}. It never retries a POST. It reports the vendor's request
 * id through {@link GenerationCall#listener()} the moment it is known. An exception escaping it is
 * treated as an {@link Outcome.AdapterFault} by the engine. Implementations are thread-safe.
 */
public interface ProviderAdapter {

    /** Run one billable generation call. */
    Outcome generate(GenerationCall call);

    /**
     * Ask the vendor what became of an earlier call, by its request id when known, else by our
     * reference. Vendors without a lookup answer {@link ReconcileAnswer.Unsupported}.
     */
    default ReconcileAnswer reconcile(AttemptRef attempt) {
        return new ReconcileAnswer.Unsupported("this provider offers no lookup");
    }

    /** Ask the vendor to cancel an in-flight call where it can. */
    default CancelAnswer cancel(AttemptRef attempt) {
        return new CancelAnswer.Unsupported("this provider offers no cancel");
    }

    /**
     * The vendor's own report of what our account was charged on {@code day} (UTC), for the daily
     * invoice check. Never billable; never throws.
     */
    default UsageAnswer usage(java.time.LocalDate day) {
        return new UsageAnswer.Unsupported("this provider offers no usage report");
    }

    /** A cheap, non-billable liveness probe. */
    default HealthAnswer health() {
        return HealthAnswer.unchecked();
    }
}
