package io.idem.core.alert;

import io.idem.core.spi.IncidentLedger;
import io.idem.core.spi.SignalReads;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the threshold rules' breaches into incidents shared by every node, and incidents into
 * alerts. Selective like the event rules: an incident alerts only once it has lasted the quiet
 * period (one that clears sooner was only a blip), once per incident (its key is the shared
 * incident's id), and its end is one recovery alert saying how long it lasted. Alerts are derived
 * from the shared incidents on every evaluation, so a node that dies after opening or resolving one
 * leaves its alert to the others; the delivery ledger keeps each to one send per channel. Not
 * thread-safe: the dispatcher owns it.
 */
public final class IncidentWatch {
    /** How long a resolved incident's recovery alert is still derived (and so delivered). */
    static final Duration RECOVERY_WINDOW = Duration.ofMinutes(15);

    private final ThresholdRules rules;
    private final SignalReads reads;
    private final IncidentLedger ledger;
    private final Duration quiet;
    private final Signals.Query query;

    /** @param providers every configured provider, job and chat */
    public IncidentWatch(
            AlertThresholds thresholds,
            java.util.Set<String> providers,
            SignalReads reads,
            IncidentLedger ledger,
            Duration quiet) {
        this.rules = new ThresholdRules(thresholds);
        this.query = thresholds.query(providers);
        this.reads = reads;
        this.ledger = ledger;
        this.quiet = quiet;
    }

    /** Reads the signals, opens and resolves incidents, and returns the alerts they call for now. */
    public List<Alert> evaluate(Instant now) {
        Map<String, ThresholdRules.Breach> breaches = new HashMap<>();
        for (ThresholdRules.Breach breach : rules.breaches(reads.read(query, now))) {
            breaches.put(breach.rule() + "|" + breach.subject(), breach);
        }
        List<Alert> alerts = new ArrayList<>();
        for (ThresholdRules.Breach breach : breaches.values()) {
            IncidentLedger.Incident incident = ledger.open(breach.rule(), breach.subject(), now);
            if (!now.isBefore(incident.since().plus(quiet))) {
                if (incident.alertedAt().isEmpty()) {
                    ledger.markAlerted(incident.id(), now);
                }
                alerts.add(new Alert(
                        breach.rule() + ":" + breach.subject() + ":" + incident.id(),
                        breach.rule(),
                        breach.subject(),
                        breach.text(),
                        now));
            }
        }
        for (IncidentLedger.Incident incident : ledger.recent(now.minus(RECOVERY_WINDOW))) {
            if (incident.resolvedAt().isEmpty() && !breaches.containsKey(incident.rule() + "|" + incident.subject())) {
                ledger.resolve(incident.rule(), incident.subject(), now)
                        .filter(resolved -> resolved.alertedAt().isPresent())
                        .ifPresent(resolved -> alerts.add(recovery(resolved, now)));
            } else if (incident.resolvedAt().isPresent() && incident.alertedAt().isPresent()) {
                alerts.add(recovery(incident, incident.resolvedAt().get()));
            }
        }
        return alerts;
    }

    private static Alert recovery(IncidentLedger.Incident incident, Instant at) {
        Instant end = incident.resolvedAt().orElse(at);
        return new Alert(
                incident.rule() + ".resolved:" + incident.subject() + ":" + incident.id(),
                incident.rule() + ".resolved",
                incident.subject(),
                ThresholdRules.recovered(incident.rule(), incident.subject(), Duration.between(incident.since(), end)),
                end);
    }
}
