package io.idem.core.breaker;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The states of a provider's circuit breaker, and the one whitelist of moves between them. */
public enum BreakerState {
    /** Calls flow. */
    CLOSED,
    /** No calls until the cooldown ends. */
    OPEN,
    /** Cooldown over: exactly one probe call across all nodes decides. */
    HALF_OPEN;

    private static final Map<BreakerState, Set<BreakerState>> LEGAL = Map.of(
            CLOSED, EnumSet.of(OPEN),
            OPEN, EnumSet.of(HALF_OPEN),
            HALF_OPEN, EnumSet.of(CLOSED, OPEN));

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static BreakerState fromWire(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }

    public boolean canMoveTo(BreakerState to) {
        return LEGAL.get(this).contains(to);
    }

    /** Throws unless {@code this → to} is a legal breaker move. */
    public void check(BreakerState to) {
        if (!canMoveTo(to)) {
            throw new IllegalStateException("illegal breaker transition " + wire() + " -> " + to.wire());
        }
    }
}
