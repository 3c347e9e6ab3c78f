-- :jobs queued copies of the database's oldest job, in one transaction, each a microsecond apart
-- in the queue: what idem-bench/warm-drain/run and idem-bench/ab/run drain.
--   psql DATABASE_URL -v jobs=20000 -f idem-bench/queued-copies.sql
INSERT INTO jobs (id, owner, state, kind, lane, model, prompt, size, n, timeout_seconds, candidates, pinned,
                  simulate, metadata, created_at, updated_at, api_key_id)
SELECT gen_random_uuid(), t.owner, 'queued', t.kind, t.lane, t.model, t.prompt || ' #' || g, t.size, t.n,
       t.timeout_seconds, t.candidates, t.pinned, t.simulate, t.metadata,
       clock_timestamp() + g * interval '1 microsecond', clock_timestamp(), t.api_key_id
  FROM (SELECT * FROM jobs ORDER BY created_at, id LIMIT 1) t, generate_series(1, :jobs) g;
