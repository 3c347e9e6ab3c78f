-- Outbound event webhooks. Every notable event lands in `outbox` in the transaction of the change it
-- reports: AFTER INSERT triggers on the event tables copy the notable rows, so every statement that
-- writes those tables (job moves, breaker moves, budget thresholds, chat failovers, health flips)
-- writes its outbox row with it, and a row that is not notable costs only the trigger's WHEN test.
-- Each node's dispatcher takes outbox rows with SKIP LOCKED and, in the same transaction, deletes
-- them and writes one outbox_deliveries row per matching subscription (and per job callback_url).

CREATE TABLE webhook_subscriptions (
    id            uuid        PRIMARY KEY,
    owner         text        NOT NULL,
    -- 'all': every event of every owner (an admin's); 'owner': job events of the owner's jobs only
    scope         text        NOT NULL CHECK (scope IN ('all', 'owner')),
    created_by    uuid        NOT NULL,
    url           text        NOT NULL,
    event_types   text[]      NOT NULL,
    description   text,
    -- the signing secret, sealed (AES-GCM) under a key derived from the server secret
    secret_sealed bytea       NOT NULL,
    created_at    timestamptz NOT NULL
);
CREATE INDEX webhook_subscriptions_by_owner ON webhook_subscriptions (owner, created_at);

CREATE TABLE outbox (
    id      bigserial   PRIMARY KEY,
    type    text        NOT NULL,
    -- a job event's job: the dispatcher adds the job's owner and metadata, and its callback_url
    job_id  uuid,
    data    jsonb       NOT NULL,
    at      timestamptz NOT NULL
);

-- One row per (event, subscription), or per job event and its callback_url (subscription_id NULL).
-- Its id is the webhook-id every attempt sends; body is the exact payload every attempt signs.
CREATE TABLE outbox_deliveries (
    id              uuid        PRIMARY KEY,
    event_id        bigint      NOT NULL,
    event_type      text        NOT NULL,
    subscription_id uuid        REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
    -- a callback's signer: the key that submitted the job
    api_key_id      uuid,
    url             text        NOT NULL,
    body            text        NOT NULL,
    status          text        NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        integer     NOT NULL DEFAULT 0,
    -- when a pending delivery is due; a claim moves it to the claim's end, so a claim left by a node
    -- that died comes due again and is taken over
    next_attempt_at timestamptz,
    claim           uuid,
    claimed_by      text,
    last_attempt_at timestamptz,
    last_status     integer,
    last_error      text,
    created_at      timestamptz NOT NULL,
    give_up_at      timestamptz NOT NULL,
    finished_at     timestamptz,
    CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
);
CREATE UNIQUE INDEX outbox_deliveries_once ON outbox_deliveries (event_id, subscription_id) NULLS NOT DISTINCT;
CREATE INDEX outbox_deliveries_due ON outbox_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX outbox_deliveries_log ON outbox_deliveries (subscription_id, created_at DESC, id DESC);
CREATE INDEX outbox_deliveries_finished ON outbox_deliveries (finished_at) WHERE status <> 'pending';

-- A job may name where its own end is announced (POST /v1/jobs callback_url).
ALTER TABLE jobs ADD COLUMN callback_url text;

-- A provider's health as the nodes' health checks last saw it: a change is one provider_events row
-- (provider.unhealthy, provider.recovered), written by the node whose check saw it first.
CREATE TABLE provider_health (
    provider   text        PRIMARY KEY,
    healthy    boolean     NOT NULL,
    changed_at timestamptz NOT NULL
);

-- When a static tier last served a chat call and since when it has been serving without a long gap:
-- a new stretch is one tier.static_active provider event.
CREATE TABLE static_tier_activity (
    provider       text        PRIMARY KEY,
    active_since   timestamptz NOT NULL,
    last_served_at timestamptz NOT NULL
);

CREATE FUNCTION outbox_job_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO outbox (type, job_id, data, at)
    VALUES ('job.' || NEW.to_state, NEW.job_id,
            jsonb_build_object('job_id', NEW.job_id, 'state', NEW.to_state, 'previous_state', NEW.from_state,
                               'trace_type', NEW.type, 'detail', NEW.detail),
            NEW.at);
    RETURN NULL;
END $$;

CREATE TRIGGER job_events_outbox AFTER INSERT ON job_events FOR EACH ROW
    WHEN (NEW.to_state IN ('succeeded', 'failed', 'manual_review', 'canceled'))
    EXECUTE FUNCTION outbox_job_event();

CREATE FUNCTION outbox_provider_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO outbox (type, data, at)
    VALUES (CASE NEW.type WHEN 'breaker.open' THEN 'breaker.opened' ELSE NEW.type END,
            jsonb_build_object('provider', NEW.provider) || NEW.detail,
            NEW.at);
    RETURN NULL;
END $$;

CREATE TRIGGER provider_events_outbox AFTER INSERT ON provider_events FOR EACH ROW
    WHEN (NEW.type IN ('breaker.open', 'breaker.closed', 'provider.unhealthy', 'provider.recovered',
                       'tier.static_active'))
    EXECUTE FUNCTION outbox_provider_event();

CREATE FUNCTION outbox_budget_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO outbox (type, data, at)
    VALUES (NEW.type,
            jsonb_build_object('scope', NEW.scope, 'period_start', NEW.starts, 'spent_usd', NEW.spent_usd,
                               'cap_usd', NEW.cap_usd)
            || CASE WHEN NEW.scope LIKE 'provider:%'
                    THEN jsonb_build_object('provider', substr(NEW.scope, length('provider:') + 1), 'period', 'day')
                    ELSE jsonb_build_object('api_key_id', split_part(NEW.scope, ':', 2),
                                            'period', split_part(NEW.scope, ':', 3)) END,
            NEW.at);
    RETURN NULL;
END $$;

CREATE TRIGGER budget_events_outbox AFTER INSERT ON budget_events FOR EACH ROW
    EXECUTE FUNCTION outbox_budget_event();

CREATE FUNCTION outbox_audit_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO outbox (type, data, at)
    VALUES (NEW.type, NEW.detail || jsonb_build_object('actor', NEW.actor), NEW.at);
    RETURN NULL;
END $$;

CREATE TRIGGER audit_events_outbox AFTER INSERT ON audit_events FOR EACH ROW
    WHEN (NEW.type = 'api:model_failover')
    EXECUTE FUNCTION outbox_audit_event();
