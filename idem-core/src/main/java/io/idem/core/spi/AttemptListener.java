package io.idem.core.spi;

/** Lets an adapter report progress of a call while it is still running. */
@FunctionalInterface
public interface AttemptListener {
    /** The vendor accepted the call and gave it this id; committed at once so a crash keeps it. */
    void submitted(String providerRequestId);

    AttemptListener NONE = id -> {};
}
