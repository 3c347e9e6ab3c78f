package io.idem.core.breaker;

/** Whether a call to a provider may go out now. */
public sealed interface Admission {
    /** Go ahead; {@code probe} means this call alone decides whether the breaker closes. */
    record Allowed(boolean probe) implements Admission {}

    /** Do not call; move on to the next candidate. */
    record Denied(String reason) implements Admission {}

    /** What the cached state says to do, before any shared write. */
    enum Decision {
        ALLOW,
        DENY,
        TRY_PROBE
    }

    /** The pure rule: what a snapshot permits at {@code now}. */
    static Decision decide(BreakerSnapshot snapshot, java.time.Instant now) {
        return switch (snapshot.state()) {
            case CLOSED -> Decision.ALLOW;
            case OPEN -> snapshot.openUntil().map(now::isBefore).orElse(false) ? Decision.DENY : Decision.TRY_PROBE;
            case HALF_OPEN ->
                snapshot.probeUntil().map(now::isBefore).orElse(false) ? Decision.DENY : Decision.TRY_PROBE;
        };
    }
}
