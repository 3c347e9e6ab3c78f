-- The daily invoice check: Idem's audit of a provider's UTC day against the vendor's own usage
-- report. One row per provider and day; a node claims it (claimed_at) before it asks the vendor, so
-- the check runs once across nodes, and a claim left by a node that died is taken over.
CREATE TABLE invoice_checks (
    provider        text           NOT NULL,
    day             date           NOT NULL,
    claimed_at      timestamptz    NOT NULL,
    checked_at      timestamptz,
    audit_usd       numeric(20, 9),
    vendor_usd      numeric(20, 9),
    capture_rate    numeric(14, 4),
    unmatched       jsonb          NOT NULL DEFAULT '[]',
    unmatched_count integer        NOT NULL DEFAULT 0,
    itemized        boolean,
    PRIMARY KEY (provider, day)
);
CREATE INDEX invoice_checks_recent ON invoice_checks (day DESC) WHERE checked_at IS NOT NULL;
