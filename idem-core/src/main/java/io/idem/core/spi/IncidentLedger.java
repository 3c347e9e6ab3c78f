package io.idem.core.spi;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Incidents of the threshold alert rules, shared by every node so they agree on when one began and
 * which alert key it has: at most one open incident per rule and subject. Thread-safe.
 */
public interface IncidentLedger {
    /** The open incident of {@code rule} and {@code subject}, opened at {@code at} if none was. */
    Incident open(String rule, String subject, Instant at);

    /** Records that the incident's alert was raised (the first time counts). */
    void markAlerted(long id, Instant at);

    /** Closes an open incident whose rule no longer holds; empty when none was open. */
    Optional<Incident> resolve(String rule, String subject, Instant at);

    /** The open incidents, and those resolved at or after {@code since}. */
    List<Incident> recent(Instant since);

    /** One incident; {@code alertedAt} is set once a node raised its alert. */
    record Incident(
            long id,
            String rule,
            String subject,
            Instant since,
            Optional<Instant> alertedAt,
            Optional<Instant> resolvedAt) {}
}
