-- Which alert went to which channel: one row per (alert, channel), claimed by the node that sends it
-- and marked sent once the channel took it. A claim left unsent by a node that died goes stale and is
-- taken over, so every alert reaches every channel at least once and, while nodes live, once.
CREATE TABLE alert_deliveries (
    alert_key  text        NOT NULL,
    channel    text        NOT NULL,
    claimed_at timestamptz NOT NULL,
    sent_at    timestamptz,
    PRIMARY KEY (alert_key, channel)
);
-- A starting node reads the event log back from a moment in time.
CREATE INDEX provider_events_at ON provider_events (at);
