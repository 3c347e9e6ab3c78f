package io.idem.core.spi;

import java.time.Duration;
import java.time.Instant;

/**
 * Provider-level changes that nodes observe separately and the provider event log records once for
 * all of them. Thread-safe; each method is one statement.
 */
public interface ProviderSignals {
    /** How long a static tier may go without serving before its next answer starts a new stretch. */
    Duration STATIC_TIER_GAP = Duration.ofMinutes(10);

    /**
     * A health check's verdict. Only a change of the shared verdict writes an event: {@code
     * provider.unhealthy} (also for a first verdict that is unhealthy), {@code provider.recovered}.
     * Returns whether this call wrote it.
     */
    boolean health(String provider, boolean healthy, String detail, String node, Instant at);

    /**
     * A static tier served a call at {@code at}. The first answer after {@link #STATIC_TIER_GAP}
     * without one writes a {@code tier.static_active} event. Returns whether this call wrote it.
     */
    boolean staticTierServed(String provider, Instant at);

    /** Records nothing (for engines without a shared log). */
    ProviderSignals NONE = new ProviderSignals() {
        @Override
        public boolean health(String provider, boolean healthy, String detail, String node, Instant at) {
            return false;
        }

        @Override
        public boolean staticTierServed(String provider, Instant at) {
            return false;
        }
    };
}
