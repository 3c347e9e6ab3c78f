-- Reconcile holds: a job being re-checked against its provider is held by one node at a time, so
-- two sweeping nodes never promote (or requeue) the same job twice.
ALTER TABLE jobs ADD COLUMN reconcile_token uuid;
ALTER TABLE jobs ADD COLUMN reconcile_until timestamptz;
ALTER TABLE jobs ADD COLUMN reconciled_at timestamptz;

CREATE INDEX jobs_review_queue ON jobs (review_since, id) WHERE state = 'manual_review';
