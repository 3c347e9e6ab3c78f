package io.idem.core.chat;

import java.util.Locale;
import java.util.Optional;

/**
 * What a stream does when its model fails after the client has seen content ({@code
 * redundancy.mid_stream}).
 */
public enum MidStream {
    /** The stream stays with its model: a failure is an error frame, the answer is incomplete. */
    LOCK,
    /**
     * The next model of the chain takes over: it is given the partial answer to continue when it
     * takes a prefill, else it answers afresh after an explicit restart marker.
     */
    CONTINUE;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<MidStream> fromWire(String value) {
        for (MidStream mode : values()) {
            if (mode.wire().equals(value)) {
                return Optional.of(mode);
            }
        }
        return Optional.empty();
    }
}
