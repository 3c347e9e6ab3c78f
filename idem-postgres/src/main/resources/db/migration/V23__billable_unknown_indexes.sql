-- Money at risk (the metrics gauge) sums the expected cost of attempts whose billing is unknown.
-- Those are few at any moment (calls in flight, parked attempts), so a partial index keeps the sum
-- as cheap as the backlog it measures, however long the audit grows.
CREATE INDEX provider_attempts_billable_unknown ON provider_attempts (provider) INCLUDE (cost_usd)
    WHERE billable = 'unknown';
CREATE INDEX chat_attempts_billable_unknown ON chat_attempts (provider) INCLUDE (cost_usd)
    WHERE billable = 'unknown';
