package io.idem.core.status;

import java.util.Locale;

/** How a service stands for the people who use it, from best to worst. */
public enum StatusLevel {
    /** Everything that serves it is fine. */
    OPERATIONAL,
    /** It still serves, but not everything that serves it is fine. */
    DEGRADED,
    /** Nothing can serve it now. */
    DOWN;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The worse of the two. */
    public StatusLevel worst(StatusLevel other) {
        return compareTo(other) >= 0 ? this : other;
    }
}
