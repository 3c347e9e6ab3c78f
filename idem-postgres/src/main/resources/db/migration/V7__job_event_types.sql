-- The job trace is a closed set (io.idem.core.domain.JobEventType): the table refuses any other type.
ALTER TABLE job_events ADD CONSTRAINT job_events_type_known CHECK (type IN (
    'job.created', 'job.claimed', 'job.requeued', 'attempt.failed_over', 'candidate.skipped', 'job.succeeded', 'job.failed',
    'job.manual_review', 'job.reconciled', 'job.resolved', 'job.review_expired', 'job.canceled'));
