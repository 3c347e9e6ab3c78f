package io.idem.server.alerts;

import io.idem.core.alert.AlertDispatcher;
import io.idem.core.alert.IncidentWatch;
import io.idem.core.engine.Periodic;
import io.idem.core.spi.AlertLedger;
import io.idem.core.spi.IncidentLedger;
import io.idem.core.spi.SignalReads;
import io.idem.core.text.Redactor;
import io.idem.server.config.AlertSettings;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import java.util.Set;

/**
 * The node's alert dispatcher over the configured channels, polling the shared event log every
 * {@link #POLL_EVERY} and evaluating the threshold rules as often as they say. Every node
 * runs one; the ledgers make each alert reach each channel once.
 */
public final class Alerts {
    static final Duration POLL_EVERY = Duration.ofSeconds(2);

    private Alerts() {}

    /**
     * What the threshold rules read and where their incidents are kept.
     *
     * @param providers every configured provider, job and chat
     * @param staticTier the chat-only providers that are the static tier
     */
    public record Thresholds(
            SignalReads signals, IncidentLedger incidents, Set<String> providers, Set<String> staticTier) {}

    /** Starts polling when a channel is configured; closing it stops. Nothing to do without channels. */
    public static AutoCloseable start(
            AlertSettings settings, AlertLedger ledger, Thresholds thresholds, Redactor redactor, InstantSource clock) {
        if (settings.channels().isEmpty()) {
            return () -> {};
        }
        var rules = settings.rules().withStaticProviders(thresholds.staticTier());
        var watch = new IncidentWatch(
                rules, thresholds.providers(), thresholds.signals(), thresholds.incidents(), settings.quiet());
        var dispatcher = new AlertDispatcher(
                ledger,
                HttpAlertChannel.of(settings, redactor, clock),
                settings.quiet(),
                clock,
                Optional.of(watch),
                rules.evaluateEvery());
        return Periodic.start("alerts", POLL_EVERY, POLL_EVERY, dispatcher::poll);
    }
}
