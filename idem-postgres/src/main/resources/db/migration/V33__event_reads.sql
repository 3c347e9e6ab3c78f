-- The event stream (GET /v1/events) reads each source newest first: by time, then the source's own
-- id, which is also how its cursor continues. Key budget thresholds get an id for that order.
ALTER TABLE budget_events ADD COLUMN id bigserial;
CREATE INDEX job_events_recent ON job_events (at, id);
CREATE INDEX audit_events_recent ON audit_events (at, id);
CREATE INDEX budget_events_recent ON budget_events (at, id);
-- (at, id) answers what (at) did, the alert ledger's start included.
CREATE INDEX provider_events_at_id ON provider_events (at, id);
DROP INDEX provider_events_at;
-- The status page: each provider's latest event of a type.
CREATE INDEX provider_events_latest ON provider_events (provider, type, at);
-- GET /v1/chat/attempts: newest finished first, for everyone or for one owner.
CREATE INDEX chat_attempts_recent ON chat_attempts (finished_at, id);
CREATE INDEX chat_attempts_owner_recent ON chat_attempts (owner, finished_at, id);
