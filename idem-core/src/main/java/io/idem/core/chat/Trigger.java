package io.idem.core.chat;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** A kind of failure that {@code redundancy.on} may name as a reason to fail over (DESIGN §5). */
public enum Trigger {
    /** Our per-attempt, first-token or read timeout passed. */
    TIMEOUT,
    /** The vendor said 429. */
    RATE_LIMIT,
    /** The vendor answered 5xx, a malformed 200, or could not serve for a reason of its own. */
    SERVER_ERROR,
    /** No usable connection: refused, reset, DNS, TLS, or a stream cut off. */
    CONNECTION_ERROR;

    /** Every trigger: the default of {@code on}. */
    public static Set<Trigger> all() {
        return EnumSet.allOf(Trigger.class);
    }

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Trigger> fromWire(String value) {
        for (Trigger trigger : values()) {
            if (trigger.wire().equals(value)) {
                return Optional.of(trigger);
            }
        }
        return Optional.empty();
    }
}
