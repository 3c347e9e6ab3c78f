-- The console's dashboard charts money at risk over time: an attempt is at risk from its start until
-- its billing is known. The audit keeps what it was expected to cost (cost_usd becomes the billed
-- cost, or 0 when not billed) and when its billable left 'unknown': at its own settle, or later by
-- reconcile, an operator's decision or a cancel. Attempts written before this migration carry
-- neither: they count at their cost_usd, and once settled they are left out of the history.
ALTER TABLE provider_attempts ADD COLUMN expected_cost_usd numeric(14, 6);
ALTER TABLE provider_attempts ADD COLUMN billing_known_at timestamptz;
-- The at-risk history reads the attempts whose billing became known inside its window.
CREATE INDEX provider_attempts_billing_known ON provider_attempts (billing_known_at)
    WHERE billing_known_at IS NOT NULL;

-- The review-queue depth over time walks the moves into and out of manual_review, which are few.
CREATE INDEX job_events_review_moves ON job_events (at)
    WHERE from_state = 'manual_review' OR to_state = 'manual_review';
