package io.idem.core.alert;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which provider events become alerts. Selective by design: a breaker that opens and closes again
 * inside the quiet period (a primary → backup → primary switch) alerts nobody, it is only an event;
 * one that stays open past it is one {@code provider.down} alert per incident (re-opens from
 * half-open are the same incident), and its closing is one {@code provider.recovered} alert that
 * says how long it lasted. Budget thresholds alert at once (the log holds each once per provider
 * and day). Deterministic: every node that reads the same log derives the same alerts with the
 * same keys. Not thread-safe; one dispatcher owns it.
 */
public final class AlertRules {
    private final Duration quiet;
    private final Map<String, Incident> incidents = new HashMap<>();

    /** A provider's open breaker: since when, from which event, and whether it was alerted. */
    private record Incident(long startEvent, Instant since, String reason, boolean alerted) {}

    public AlertRules(Duration quiet) {
        if (quiet.isNegative()) {
            throw new IllegalArgumentException("the quiet period must not be negative, was " + quiet);
        }
        this.quiet = quiet;
    }

    /** The alerts an event raises now (a breaker opening raises none until {@link #tick}). */
    public List<Alert> onEvent(ProviderEvent event) {
        String provider = event.provider();
        return switch (event.type()) {
            case "breaker.open" -> {
                incidents.putIfAbsent(
                        provider,
                        new Incident(event.id(), event.at(), event.detail().getOrDefault("reason", "?"), false));
                yield List.of();
            }
            case "breaker.closed" -> closed(provider, event.at());
            case "budget.warning", "budget.exhausted" -> List.of(budget(event));
            case "invoice.drift" -> List.of(invoiceDrift(event));
            default -> List.of();
        };
    }

    /** The down alerts of incidents that outlasted the quiet period by {@code now}. */
    public List<Alert> tick(Instant now) {
        List<Alert> alerts = new ArrayList<>();
        incidents.replaceAll((provider, incident) -> {
            if (incident.alerted() || now.isBefore(incident.since().plus(quiet))) {
                return incident;
            }
            alerts.add(new Alert(
                    "provider.down:" + provider + ":" + incident.startEvent(),
                    "provider.down",
                    provider,
                    "provider " + provider + " is down: its breaker has been open since " + incident.since() + " ("
                            + incident.reason() + "); traffic goes to the next candidate",
                    now));
            return new Incident(incident.startEvent(), incident.since(), incident.reason(), true);
        });
        return alerts;
    }

    private List<Alert> closed(String provider, Instant at) {
        Incident incident = incidents.remove(provider);
        if (incident == null || !incident.alerted()) {
            return List.of();
        }
        Duration lasted = Duration.between(incident.since(), at);
        return List.of(new Alert(
                "provider.recovered:" + provider + ":" + incident.startEvent(),
                "provider.recovered",
                provider,
                "provider " + provider + " recovered after " + human(lasted),
                at));
    }

    private static Alert budget(ProviderEvent event) {
        boolean exhausted = event.type().equals("budget.exhausted");
        String spent = event.detail().getOrDefault("spent_usd", "?");
        String budget = event.detail().getOrDefault("budget_usd", "?");
        return new Alert(
                event.type() + ":" + event.provider() + ":" + event.id(),
                event.type(),
                event.provider(),
                "provider " + event.provider()
                        + (exhausted ? " reached its daily budget" : " passed half its daily budget") + ": $" + spent
                        + " of $" + budget + (exhausted ? "; it is skipped until 00:00 UTC" : ""),
                event.at());
    }

    private static Alert invoiceDrift(ProviderEvent event) {
        var d = event.detail();
        return new Alert(
                event.type() + ":" + event.provider() + ":" + event.id(),
                event.type(),
                event.provider(),
                "provider " + event.provider() + "'s invoice for " + d.getOrDefault("day", "?")
                        + " does not match the audit: the vendor charged $" + d.getOrDefault("vendor_usd", "?")
                        + ", the audit counts $" + d.getOrDefault("audit_usd", "?") + " (capture "
                        + d.getOrDefault("capture_rate", "?") + "), " + d.getOrDefault("unmatched", "?")
                        + " charges Idem has no attempt for",
                event.at());
    }

    static String human(Duration d) {
        long seconds = d.toSeconds();
        if (seconds < 120) {
            return seconds + " s";
        }
        if (seconds < 7200) {
            return seconds / 60 + " min";
        }
        return seconds / 3600 + " h " + (seconds % 3600) / 60 + " min";
    }
}
