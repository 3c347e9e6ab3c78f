-- Deferral and the whole-job deadline: a job whose candidates are all closed for a while waits in the
-- queue until not_before; after deadline_at it makes no call and is not deferred again.
-- not_before is '-infinity' for a job that never waited, so the claim's condition stays a plain
-- comparison the claim index can answer.
ALTER TABLE jobs ADD COLUMN not_before timestamptz NOT NULL DEFAULT '-infinity';
ALTER TABLE jobs ADD COLUMN deadline_seconds integer NOT NULL DEFAULT 600;
ALTER TABLE jobs ADD COLUMN deadline_at timestamptz;

-- Claims scan queued jobs oldest first and skip those not yet due inside the index, without
-- visiting their rows: a burst of deferred jobs at the head of the queue costs index entries only.
CREATE INDEX jobs_queued_due ON jobs (created_at, id, not_before) WHERE state = 'queued';
DROP INDEX jobs_queued;

-- A vendor's 429 with Retry-After closes the provider for every node until this time, without
-- moving its breaker.
ALTER TABLE provider_breakers ADD COLUMN rate_limited_until timestamptz;

-- The job trace gains job.deferred.
ALTER TABLE job_events DROP CONSTRAINT job_events_type_known;
ALTER TABLE job_events ADD CONSTRAINT job_events_type_known CHECK (type IN (
    'job.created', 'job.claimed', 'job.requeued', 'job.deferred', 'attempt.failed_over', 'candidate.skipped',
    'job.succeeded', 'job.failed', 'job.manual_review', 'job.reconciled', 'job.resolved', 'job.review_expired',
    'job.canceled'));
