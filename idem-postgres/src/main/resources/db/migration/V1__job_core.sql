-- The durable job core (DESIGN §4). States and statuses are checked here as well as in code, so a
-- bug can never store a value the state machine does not know.

CREATE TABLE jobs (
    id               uuid PRIMARY KEY,
    owner            text        NOT NULL,
    state            text        NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'manual_review', 'canceled')),
    kind             text        NOT NULL,
    lane             text        NOT NULL,
    model            text,
    prompt           text        NOT NULL,
    size             text        NOT NULL,
    n                integer     NOT NULL,
    timeout_seconds  integer     NOT NULL,
    candidates       text[]      NOT NULL,
    pinned           boolean     NOT NULL,
    simulate         jsonb       NOT NULL DEFAULT '{}',
    metadata         jsonb       NOT NULL DEFAULT '{}',
    round            integer     NOT NULL DEFAULT 1,
    lease_token      uuid,
    lease_owner      text,
    lease_expires_at timestamptz,
    result_provider  text,
    result_attempt_id uuid,
    error_code       text,
    error_message    text,
    error_class      text,
    review_reason    text,
    review_since     timestamptz,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    CHECK ((state = 'running') = (lease_token IS NOT NULL))
);

-- Claims scan only queued jobs, oldest first.
CREATE INDEX jobs_queued ON jobs (created_at, id) WHERE state = 'queued';
-- The sweeper scans only running jobs by lease expiry.
CREATE INDEX jobs_running_lease ON jobs (lease_expires_at) WHERE state = 'running';
-- Listing: per owner, or per state, newest first.
CREATE INDEX jobs_owner_recent ON jobs (owner, created_at DESC, id DESC);
CREATE INDEX jobs_state_recent ON jobs (state, created_at DESC, id DESC);

-- The raw key is never stored: digest = HMAC-SHA256(server secret, owner || key).
CREATE TABLE idempotency_keys (
    digest       bytea       PRIMARY KEY,
    owner        text        NOT NULL,
    request_hash bytea       NOT NULL,
    job_id       uuid        NOT NULL,
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

CREATE TABLE provider_attempts (
    id                  uuid        PRIMARY KEY,
    job_id              uuid        NOT NULL REFERENCES jobs (id),
    provider            text        NOT NULL,
    model               text        NOT NULL,
    round               integer     NOT NULL,
    status              text        NOT NULL CHECK (status IN ('sending', 'submitted', 'unconfirmed', 'succeeded', 'failed', 'abandoned')),
    error_class         text,
    error_code          text,
    http_status         integer     NOT NULL DEFAULT 0,
    provider_request_id text,
    latency_ms          bigint,
    billable            text        NOT NULL CHECK (billable IN ('yes', 'no', 'unknown')),
    cost_usd            numeric(14, 6) NOT NULL DEFAULT 0,
    started_at          timestamptz NOT NULL,
    finished_at         timestamptz,
    -- One business attempt per provider per job and round (operator retries open a new round).
    UNIQUE (job_id, provider, round)
);
-- At most one open attempt per job: no second potentially billable call while one is unknown.
CREATE UNIQUE INDEX provider_attempts_one_open ON provider_attempts (job_id)
    WHERE status IN ('sending', 'submitted', 'unconfirmed');

CREATE TABLE job_events (
    id         bigserial   PRIMARY KEY,
    job_id     uuid        NOT NULL REFERENCES jobs (id),
    type       text        NOT NULL,
    from_state text,
    to_state   text,
    actor      text        NOT NULL,
    detail     jsonb       NOT NULL DEFAULT '{}',
    at         timestamptz NOT NULL
);
CREATE INDEX job_events_by_job ON job_events (job_id, id);

CREATE TABLE api_keys (
    id           uuid        PRIMARY KEY,
    prefix       text        NOT NULL,
    secret_hash  bytea       NOT NULL UNIQUE,
    owner        text        NOT NULL,
    role         text        NOT NULL CHECK (role IN ('client', 'operator', 'admin')),
    created_at   timestamptz NOT NULL,
    revoked_at   timestamptz
);

CREATE TABLE assets (
    id         uuid        PRIMARY KEY,
    job_id     uuid        NOT NULL REFERENCES jobs (id),
    attempt_id uuid        NOT NULL REFERENCES provider_attempts (id),
    mime_type  text        NOT NULL,
    bytes      bigint      NOT NULL,
    sha256     text        NOT NULL,
    location   text        NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX assets_by_attempt ON assets (attempt_id);
