-- Incidents of the threshold alert rules (error rate, fallback share, cost drift, money at risk,
-- review age, static tier), shared by every node: at most one open incident per rule and subject,
-- so all nodes agree on when it began and which alert key it has.
CREATE TABLE alert_incidents (
    id          bigserial   PRIMARY KEY,
    rule        text        NOT NULL,
    subject     text        NOT NULL,
    since       timestamptz NOT NULL,
    alerted_at  timestamptz,
    resolved_at timestamptz
);
CREATE UNIQUE INDEX alert_incidents_one_open ON alert_incidents (rule, subject) WHERE resolved_at IS NULL;
CREATE INDEX alert_incidents_resolved ON alert_incidents (resolved_at) WHERE resolved_at IS NOT NULL;
