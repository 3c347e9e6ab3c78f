-- SDK retries of one logical call are merged into it. A request without Idempotency-Key that is
-- tracked (it carries the SDKs' retry headers, or its API key opts in) gets an implicit key:
-- HMAC(server secret, api key id || request hash), in the same tables as client keys. The raw
-- body is never stored. request_id is the first request's X-Request-Id, which replays answer with.
ALTER TABLE idempotency_keys ADD COLUMN request_id text;

-- Chat: the holder of a running claim (finish and release touch only their own claim), the
-- first request's id, and the status of the kept answer (an implicit key keeps a failure that
-- called a model, so a retry replays it instead of calling again).
ALTER TABLE chat_idempotency ADD COLUMN holder uuid;
ALTER TABLE chat_idempotency ADD COLUMN request_id text;
ALTER TABLE chat_idempotency ADD COLUMN status integer NOT NULL DEFAULT 200;

-- Opt-in per API key: merge any keyless identical request within this many seconds.
ALTER TABLE api_keys ADD COLUMN dedupe_window_seconds integer
    CHECK (dedupe_window_seconds BETWEEN 1 AND 86400);
