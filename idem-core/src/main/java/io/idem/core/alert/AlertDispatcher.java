package io.idem.core.alert;

import io.idem.core.spi.AlertChannel;
import io.idem.core.spi.AlertLedger;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the shared provider event log into alerts on every configured channel, once per alert and
 * channel across all nodes (the ledger's claim decides who sends): at least once, since a claim
 * whose node died before marking it sent goes stale after {@link #CLAIM_STALE_AFTER} and another
 * node takes it over. Each node runs one and calls {@link #poll()} every few seconds. A send that
 * fails is released and tried again on later polls for up to {@link #GIVE_UP_AFTER}. On start it reads back the quiet period and a
 * minute more, so an incident already in progress is known. Not thread-safe: one poller.
 */
public final class AlertDispatcher {
    private static final Logger log = LoggerFactory.getLogger(AlertDispatcher.class);
    static final Duration GIVE_UP_AFTER = Duration.ofMinutes(15);
    static final Duration CLAIM_STALE_AFTER = Duration.ofMinutes(1);
    private static final int BATCH = 500;

    private final AlertLedger ledger;
    private final List<AlertChannel> channels;
    private final AlertRules rules;
    private final InstantSource clock;
    private final List<Alert> unsent = new ArrayList<>();
    private final Optional<IncidentWatch> thresholds;
    private final Duration evaluateEvery;
    private Instant nextEvaluation = Instant.MIN;
    private long cursor;

    public AlertDispatcher(AlertLedger ledger, List<AlertChannel> channels, Duration quiet, InstantSource clock) {
        this(ledger, channels, quiet, clock, Optional.empty(), Duration.ZERO);
    }

    /**
     * @param thresholds the threshold rules' watch, evaluated at most every {@code evaluateEvery}
     *     (its reads are aggregates over the attempt tables)
     */
    public AlertDispatcher(
            AlertLedger ledger,
            List<AlertChannel> channels,
            Duration quiet,
            InstantSource clock,
            Optional<IncidentWatch> thresholds,
            Duration evaluateEvery) {
        this.ledger = ledger;
        this.channels = List.copyOf(channels);
        this.rules = new AlertRules(quiet);
        this.clock = clock;
        this.thresholds = thresholds;
        this.evaluateEvery = evaluateEvery;
        this.cursor = ledger.lastIdBefore(clock.instant().minus(quiet).minus(Duration.ofMinutes(1)));
    }

    /** Reads new events, raises what the rules say, and sends what is due; never throws. */
    public void poll() {
        try {
            List<Alert> due = new ArrayList<>(unsent);
            unsent.clear();
            List<ProviderEvent> events;
            do {
                events = ledger.after(cursor, BATCH);
                for (ProviderEvent event : events) {
                    due.addAll(rules.onEvent(event));
                    cursor = event.id();
                }
            } while (events.size() == BATCH);
            Instant now = clock.instant();
            due.addAll(rules.tick(now));
            if (thresholds.isPresent() && !now.isBefore(nextEvaluation)) {
                nextEvaluation = now.plus(evaluateEvery);
                due.addAll(thresholds.get().evaluate(now));
            }
            due.forEach(alert -> deliver(alert, now));
        } catch (RuntimeException e) {
            log.warn("alert poll failed; the next poll tries again", e);
        }
    }

    private void deliver(Alert alert, Instant now) {
        boolean retry = false;
        for (AlertChannel channel : channels) {
            switch (ledger.claim(alert.key(), channel.name(), now, CLAIM_STALE_AFTER)) {
                case SENT -> {}
                case HELD -> retry = true;
                case MINE -> retry |= !send(alert, channel, now);
            }
        }
        if (retry && alert.at().plus(GIVE_UP_AFTER).isAfter(now)) {
            unsent.add(alert);
        }
    }

    private boolean send(Alert alert, AlertChannel channel, Instant now) {
        if (channel.send(alert) instanceof AlertChannel.Delivery.Refused refused) {
            ledger.release(alert.key(), channel.name());
            log.warn("alert {} not taken by {}: {}", alert.key(), channel.name(), refused.why());
            return false;
        }
        ledger.markSent(alert.key(), channel.name(), now);
        log.info("alert {} sent to {}", alert.key(), channel.name());
        return true;
    }
}
