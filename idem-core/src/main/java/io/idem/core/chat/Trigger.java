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
    CONNECTION_ERROR,
    /**
     * The vendor refused the prompt as longer than the model's context window: a model with a larger
     * window may well take it, unlike any other refusal of the request.
     */
    CONTEXT_LENGTH;

    /** Every trigger: the default of {@code on}. */
    public static Set<Trigger> all() {
        return EnumSet.allOf(Trigger.class);
    }

    /** Every trigger's wire name, for messages that list them. */
    public static String wireNames() {
        return String.join(
                ", ", java.util.Arrays.stream(values()).map(Trigger::wire).toList());
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
