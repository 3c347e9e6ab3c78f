package io.idem.core.chat;

import io.idem.core.spi.ProviderSignals;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the shared provider log that a static tier is serving: at most once per provider every
 * {@link #REFRESH} from this node (far inside {@link ProviderSignals#STATIC_TIER_GAP}), on its own
 * virtual thread, so a call never waits for it and a failed write costs the call nothing.
 * Thread-safe.
 */
public final class StaticTierNotes implements ChatAuditSink {
    private static final Logger log = LoggerFactory.getLogger(StaticTierNotes.class);
    static final Duration REFRESH = Duration.ofSeconds(30);

    private final ProviderSignals signals;
    private final InstantSource clock;
    private final Map<String, Instant> told = new ConcurrentHashMap<>();

    public StaticTierNotes(ProviderSignals signals, InstantSource clock) {
        this.signals = signals;
        this.clock = clock;
    }

    @Override
    public void attempt(ChatAttempt attempt) {}

    @Override
    public void failover(FailoverEvent event) {}

    @Override
    public void degraded(ChatAttempt attempt) {
        String provider = attempt.model().provider();
        Instant now = clock.instant();
        boolean[] due = {false};
        told.compute(provider, (name, last) -> {
            due[0] = last == null || !now.isBefore(last.plus(REFRESH));
            return due[0] ? now : last;
        });
        if (due[0]) {
            Thread.ofVirtual().name("idem-static-tier-note").start(() -> note(provider, now));
        }
    }

    private void note(String provider, Instant at) {
        try {
            if (signals.staticTierServed(provider, at)) {
                log.warn("the static tier '{}' is answering chat calls", provider);
            }
        } catch (RuntimeException e) {
            told.remove(provider, at);
            log.warn("could not record that the static tier '{}' served", provider, e);
        }
    }
}
