-- One job's terminal event per transaction, as a settle writes it: the row, its indexes, its
-- foreign-key check and the outbox trigger. :job is set by ./run (an existing job's id).
INSERT INTO job_events (job_id, type, from_state, to_state, actor, detail, at)
VALUES (CAST(:job AS uuid), 'job.succeeded', 'running', 'succeeded', 'worker-bench',
        jsonb_build_object('attempt_id', 'a', 'provider', 'p'), now());
