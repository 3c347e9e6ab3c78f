-- Chat calls (DESIGN §5, issue 7). Calls live in memory; every attempt is audited here, written in
-- group commits (many attempts per transaction), so the hot path never waits for one commit a call.
CREATE TABLE chat_attempts (
    id                  bigserial      PRIMARY KEY,
    call_id             uuid           NOT NULL,
    seq                 integer        NOT NULL,
    api_key_id          uuid,
    owner               text           NOT NULL,
    lane                text           NOT NULL,
    requested_model     text           NOT NULL,
    model               text           NOT NULL,
    provider            text           NOT NULL,
    vendor_model        text           NOT NULL,
    stream              boolean        NOT NULL,
    outcome             text           NOT NULL CHECK (outcome IN ('served', 'unavailable', 'rejected', 'unconfirmed', 'adapter_fault', 'skipped')),
    error_code          text,
    error_message       text,
    reason              text,
    http_status         integer        NOT NULL DEFAULT 0,
    provider_request_id text,
    latency_ms          bigint         NOT NULL,
    first_token_ms      bigint,
    prompt_tokens       bigint         NOT NULL DEFAULT 0,
    completion_tokens   bigint         NOT NULL DEFAULT 0,
    billable            text           NOT NULL CHECK (billable IN ('yes', 'no', 'unknown')),
    cost_usd            numeric(18, 9) NOT NULL DEFAULT 0,
    started_at          timestamptz    NOT NULL,
    finished_at         timestamptz    NOT NULL
);
CREATE INDEX chat_attempts_by_call ON chat_attempts (call_id);
-- Provider budgets and key budgets sum spend since the start of a day or month.
CREATE INDEX chat_attempts_by_provider ON chat_attempts (provider, started_at);
CREATE INDEX chat_attempts_by_key ON chat_attempts (api_key_id, started_at) WHERE api_key_id IS NOT NULL;

-- The audit log of API-level events (api:model_failover, …); webhook delivery comes with the events issue.
CREATE TABLE audit_events (
    id      bigserial   PRIMARY KEY,
    type    text        NOT NULL,
    actor   text        NOT NULL,
    subject text,
    detail  jsonb       NOT NULL DEFAULT '{}',
    at      timestamptz NOT NULL
);
CREATE INDEX audit_events_by_type ON audit_events (type, id DESC);
CREATE INDEX audit_events_by_subject ON audit_events (subject) WHERE subject IS NOT NULL;

-- Idempotency-Key on chat: the finished response is kept and replayed. The raw key is never stored:
-- digest = HMAC-SHA256(server secret, owner || key). A running call holds the key until locked_until.
CREATE TABLE chat_idempotency (
    digest        bytea       PRIMARY KEY,
    owner         text        NOT NULL,
    request_hash  bytea       NOT NULL,
    state         text        NOT NULL CHECK (state IN ('running', 'done')),
    locked_until  timestamptz NOT NULL,
    response      text,
    served_model  text,
    attempts      text,
    created_at    timestamptz NOT NULL,
    expires_at    timestamptz NOT NULL
);
CREATE INDEX chat_idempotency_expiry ON chat_idempotency (expires_at);

-- A key's default chat chain: {"models": [...], "timeout_ms", "first_token_timeout_ms", "on"}.
ALTER TABLE api_keys ADD COLUMN failover_defaults jsonb;
