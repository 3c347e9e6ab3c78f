-- Budgets are hard caps. Every call under a budget (a provider's daily budget, an API key's daily or
-- monthly budget) first holds its expected cost in budget_holds; the hold is counted on one
-- budget_ledger row per budget and period, and a hold is only taken when every ledger row it touches
-- has room: base + spent + reserved + expected <= cap. A hold is settled after the call (billed: its
-- actual cost; unknown: the expected cost stays; not billed: nothing), and a hold whose caller died
-- is settled by the sweeper (from the job attempt with the same id, else as unknown).

-- One row per budget and period: scope is 'provider:<name>' (period = a UTC day),
-- 'key:<id>:day' or 'key:<id>:month' (period = the UTC day, or the first day of the UTC month).
CREATE TABLE budget_ledger (
    scope        text           NOT NULL,
    starts       date           NOT NULL,
    cap_usd      numeric(14, 6) NOT NULL,
    -- What the audit held for this budget and period before the first hold (a budget set mid-period).
    base_usd     numeric(20, 9) NOT NULL DEFAULT 0,
    -- Settled holds: billed cost, or the expected cost while billing is unknown.
    spent_usd    numeric(20, 9) NOT NULL DEFAULT 0,
    -- Open holds: calls in flight, at their expected cost.
    reserved_usd numeric(20, 9) NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, starts)
);

CREATE TABLE budget_holds (
    id           uuid           PRIMARY KEY, -- a job hold has its attempt's id
    kind         text           NOT NULL CHECK (kind IN ('job', 'chat')),
    provider     text           NOT NULL,
    scopes       text[]         NOT NULL,
    starts       date[]         NOT NULL,
    expected_usd numeric(18, 9) NOT NULL,
    open         boolean        NOT NULL DEFAULT true,
    billable     text           NOT NULL DEFAULT 'unknown' CHECK (billable IN ('yes', 'no', 'unknown')),
    cost_usd     numeric(18, 9) NOT NULL,
    held_until   timestamptz    NOT NULL,
    created_at   timestamptz    NOT NULL,
    settled_at   timestamptz
);
CREATE INDEX budget_holds_open ON budget_holds (held_until) WHERE open;
CREATE INDEX budget_holds_unknown ON budget_holds (created_at) WHERE NOT open AND billable = 'unknown' AND kind = 'job';

-- Threshold events, exactly once per budget, period and threshold (across nodes).
CREATE TABLE budget_events (
    scope     text           NOT NULL,
    starts    date           NOT NULL,
    type      text           NOT NULL CHECK (type IN ('budget.warning', 'budget.exhausted')),
    spent_usd numeric(20, 9) NOT NULL,
    cap_usd   numeric(14, 6) NOT NULL,
    at        timestamptz    NOT NULL,
    PRIMARY KEY (scope, starts, type)
);

-- A request's own cost ceiling (POST /v1/jobs max_cost_usd).
ALTER TABLE jobs ADD COLUMN max_cost_usd numeric(14, 6);
