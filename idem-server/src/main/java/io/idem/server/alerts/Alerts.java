package io.idem.server.alerts;

import io.idem.core.alert.AlertDispatcher;
import io.idem.core.engine.Periodic;
import io.idem.core.spi.AlertLedger;
import io.idem.core.text.Redactor;
import io.idem.server.config.AlertSettings;
import java.time.Duration;
import java.time.InstantSource;

/**
 * The node's alert dispatcher over the configured channels, polling the shared event log every
 * {@link #POLL_EVERY}. Every node runs one; the ledger makes each alert reach each channel once.
 */
public final class Alerts {
    static final Duration POLL_EVERY = Duration.ofSeconds(2);

    private Alerts() {}

    /** Starts polling when a channel is configured; closing it stops. Nothing to do without channels. */
    public static AutoCloseable start(
            AlertSettings settings, AlertLedger ledger, Redactor redactor, InstantSource clock) {
        if (settings.channels().isEmpty()) {
            return () -> {};
        }
        var dispatcher =
                new AlertDispatcher(ledger, HttpAlertChannel.of(settings, redactor, clock), settings.quiet(), clock);
        return Periodic.start("alerts", POLL_EVERY, POLL_EVERY, dispatcher::poll);
    }
}
