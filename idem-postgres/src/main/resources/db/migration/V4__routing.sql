-- Circuit breakers shared by every node (DESIGN §6), and the provider-level event log
-- (breaker transitions, budget thresholds).
CREATE TABLE provider_breakers (
    provider    text        PRIMARY KEY,
    state       text        NOT NULL CHECK (state IN ('closed', 'open', 'half_open')),
    reopens     integer     NOT NULL DEFAULT 0,
    open_until  timestamptz,
    probe_owner text,
    probe_until timestamptz,
    version     bigint      NOT NULL DEFAULT 0,
    updated_at  timestamptz NOT NULL
);

CREATE TABLE provider_events (
    id       bigserial   PRIMARY KEY,
    provider text        NOT NULL,
    type     text        NOT NULL,
    detail   jsonb       NOT NULL DEFAULT '{}',
    day      date,
    at       timestamptz NOT NULL
);
CREATE INDEX provider_events_recent ON provider_events (provider, id DESC);
-- A budget threshold is announced once per provider and day.
CREATE UNIQUE INDEX provider_events_once_a_day ON provider_events (provider, type, day) WHERE day IS NOT NULL;

-- Key attributes for routing and budgets, and the key each job was submitted with.
ALTER TABLE api_keys ADD COLUMN adult_approved boolean NOT NULL DEFAULT false;
ALTER TABLE api_keys ADD COLUMN jurisdiction text;
ALTER TABLE api_keys ADD COLUMN daily_budget_usd numeric(14, 6);
ALTER TABLE api_keys ADD COLUMN monthly_budget_usd numeric(14, 6);
ALTER TABLE jobs ADD COLUMN api_key_id uuid;
CREATE INDEX jobs_by_key_recent ON jobs (api_key_id, created_at) WHERE api_key_id IS NOT NULL;
CREATE INDEX provider_attempts_recent ON provider_attempts (provider, started_at);
