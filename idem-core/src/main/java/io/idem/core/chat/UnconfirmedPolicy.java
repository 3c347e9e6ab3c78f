package io.idem.core.chat;

import java.util.Locale;
import java.util.Optional;

/**
 * What a lane does with a chat attempt that may have been served and billed ({@code Unconfirmed}):
 * go on to the next model (text is cheap, the default for chat) or stop there.
 */
public enum UnconfirmedPolicy {
    FAILOVER,
    STOP;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<UnconfirmedPolicy> fromWire(String value) {
        for (UnconfirmedPolicy policy : values()) {
            if (policy.wire().equals(value)) {
                return Optional.of(policy);
            }
        }
        return Optional.empty();
    }
}
