-- The two events that come with the traffic itself, a job's end and a chat call's failover, reach
-- the outbox only when something may deliver them: a webhook subscription to their type (or to
-- '*'), or, for a job's end, the job's own callback_url. Without one, the row would be written only
-- for the fan-out to take it and delete it again: measured, that round trip was most of
-- PostgreSQL's work for a chat call that failed over, and a twentieth of a drained job's. Fan-out
-- still matches owners, live keys and each subscription's age; a subscription receives the events
-- that happen after it was created, as before. The rarer events (breakers, health, budgets) keep
-- writing their rows unconditionally.

CREATE FUNCTION outbox_subscribed(event_type text) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM webhook_subscriptions WHERE event_types && ARRAY[event_type, '*'])
$$;

CREATE OR REPLACE FUNCTION outbox_job_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT outbox_subscribed('job.' || NEW.to_state)
       AND NOT EXISTS (SELECT 1 FROM jobs WHERE id = NEW.job_id AND callback_url IS NOT NULL) THEN
        RETURN NULL;
    END IF;
    INSERT INTO outbox (type, job_id, data, at)
    VALUES ('job.' || NEW.to_state, NEW.job_id,
            jsonb_build_object('job_id', NEW.job_id, 'state', NEW.to_state, 'previous_state', NEW.from_state,
                               'trace_type', NEW.type, 'detail', NEW.detail),
            NEW.at);
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION outbox_audit_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT outbox_subscribed(NEW.type) THEN
        RETURN NULL;
    END IF;
    INSERT INTO outbox (type, data, at)
    VALUES (NEW.type, NEW.detail || jsonb_build_object('actor', NEW.actor), NEW.at);
    RETURN NULL;
END $$;
