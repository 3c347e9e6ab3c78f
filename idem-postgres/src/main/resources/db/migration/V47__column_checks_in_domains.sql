-- The one-column checks of the tables that jobs and chat calls write move into domains: the same
-- rules, refused with the same SQLSTATE (23514, check_violation), under the same names but for
-- billable_flag_check, which serves three tables. PostgreSQL reads a table's check constraints from
-- their stored text and plans them again in every statement that inserts or updates one of its
-- rows: on POST /v1/jobs that was 13 % of its CPU (docs/benchmarks.md, eighth round), and chat calls
-- paid it per recorded attempt. A domain's checks are planned once per session, and a statement
-- checks only the columns it writes. The checks that span two columns stay on their tables.
--
-- Each column changes type while its domain has no check yet, which PostgreSQL does without
-- rewriting the table (only the partial indexes whose condition names the column are rebuilt);
-- adding the check then reads the rows once to validate them. One transaction: nothing is written
-- between the table's check going and the domain's arriving.

CREATE DOMAIN job_state AS text;
ALTER TABLE jobs DROP CONSTRAINT jobs_state_check, ALTER COLUMN state TYPE job_state;
ALTER DOMAIN job_state ADD CONSTRAINT jobs_state_check
    CHECK (VALUE IN ('queued', 'running', 'succeeded', 'failed', 'manual_review', 'canceled'));

CREATE DOMAIN video_length_seconds AS integer;
ALTER TABLE jobs DROP CONSTRAINT jobs_video_seconds_check, ALTER COLUMN video_seconds TYPE video_length_seconds;
ALTER DOMAIN video_length_seconds ADD CONSTRAINT jobs_video_seconds_check CHECK (VALUE BETWEEN 1 AND 120);

CREATE DOMAIN image_options_object AS jsonb;
ALTER TABLE jobs DROP CONSTRAINT jobs_image_options_check, ALTER COLUMN image_options TYPE image_options_object;
ALTER DOMAIN image_options_object ADD CONSTRAINT jobs_image_options_check
    CHECK (VALUE IS NULL OR jsonb_typeof(VALUE) = 'object');

CREATE DOMAIN attempt_status AS text;
ALTER TABLE provider_attempts DROP CONSTRAINT provider_attempts_status_check, ALTER COLUMN status TYPE attempt_status;
ALTER DOMAIN attempt_status ADD CONSTRAINT provider_attempts_status_check
    CHECK (VALUE IN ('sending', 'submitted', 'unconfirmed', 'succeeded', 'failed', 'abandoned'));

-- Whether a provider call is billed, wherever it is recorded: a job's attempt, a chat call's
-- attempt, a budget's hold.
CREATE DOMAIN billable_flag AS text;
ALTER TABLE provider_attempts DROP CONSTRAINT provider_attempts_billable_check, ALTER COLUMN billable TYPE billable_flag;
ALTER TABLE chat_attempts DROP CONSTRAINT chat_attempts_billable_check, ALTER COLUMN billable TYPE billable_flag;
ALTER TABLE budget_holds DROP CONSTRAINT budget_holds_billable_check, ALTER COLUMN billable TYPE billable_flag;
ALTER DOMAIN billable_flag ADD CONSTRAINT billable_flag_check CHECK (VALUE IN ('yes', 'no', 'unknown'));

CREATE DOMAIN budget_hold_kind AS text;
ALTER TABLE budget_holds DROP CONSTRAINT budget_holds_kind_check, ALTER COLUMN kind TYPE budget_hold_kind;
ALTER DOMAIN budget_hold_kind ADD CONSTRAINT budget_holds_kind_check CHECK (VALUE IN ('job', 'chat'));

CREATE DOMAIN chat_outcome AS text;
ALTER TABLE chat_attempts DROP CONSTRAINT chat_attempts_outcome_check, ALTER COLUMN outcome TYPE chat_outcome;
ALTER DOMAIN chat_outcome ADD CONSTRAINT chat_attempts_outcome_check
    CHECK (VALUE IN ('served', 'unavailable', 'rejected', 'unconfirmed', 'adapter_fault', 'skipped'));

-- The job trace is a closed set (io.idem.core.domain.JobEventType); a new type is added by
-- dropping this check and adding it again with the longer list.
CREATE DOMAIN job_event_type AS text;
ALTER TABLE job_events DROP CONSTRAINT job_events_type_known, ALTER COLUMN type TYPE job_event_type;
ALTER DOMAIN job_event_type ADD CONSTRAINT job_events_type_known CHECK (VALUE IN (
    'job.created', 'job.claimed', 'job.requeued', 'job.deferred', 'attempt.failed_over', 'candidate.skipped',
    'job.succeeded', 'job.failed', 'job.manual_review', 'job.reconciled', 'job.resolved', 'job.review_expired',
    'job.canceled', 'output.moderated'));

-- A column's statistics go with its old type: gather them again at once where there are rows, so
-- the claim's and the reads' plans do not wait for autovacuum. Not on an empty table: that would
-- record it as empty, and a new install's planner would then pass over the partial indexes.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM jobs) THEN
        ANALYZE jobs (state, video_seconds, image_options);
    END IF;
    IF EXISTS (SELECT 1 FROM job_events) THEN
        ANALYZE job_events (type);
    END IF;
    IF EXISTS (SELECT 1 FROM provider_attempts) THEN
        ANALYZE provider_attempts (status, billable);
    END IF;
    IF EXISTS (SELECT 1 FROM chat_attempts) THEN
        ANALYZE chat_attempts (billable, outcome);
    END IF;
    IF EXISTS (SELECT 1 FROM budget_holds) THEN
        ANALYZE budget_holds (billable, kind);
    END IF;
END
$$;
