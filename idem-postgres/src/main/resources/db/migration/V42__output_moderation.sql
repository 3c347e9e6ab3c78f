-- The job trace gains output.moderated: output moderation's verdict on a moderated lane's result.
ALTER TABLE job_events DROP CONSTRAINT job_events_type_known;
ALTER TABLE job_events ADD CONSTRAINT job_events_type_known CHECK (type IN (
    'job.created', 'job.claimed', 'job.requeued', 'job.deferred', 'attempt.failed_over', 'candidate.skipped',
    'job.succeeded', 'job.failed', 'job.manual_review', 'job.reconciled', 'job.resolved', 'job.review_expired',
    'job.canceled', 'output.moderated'));
