package io.idem.postgres;

/** The statements of {@link PgSpendStore}'s budget holds, kept apart so the store reads as its steps. */
final class BudgetSql {
    private BudgetSql() {}

    /**
     * The budgets a call falls under, from its parameters (provider, its cap or null, job id, key
     * id, UTC day, first day of the UTC month): the provider's day, and the key's day and month
     * when the key (named, or the job's) carries those budgets.
     */
    private static final String CAPS = """
            p AS (
                SELECT ?::text AS provider, ?::numeric AS provider_cap, ?::uuid AS job_id, ?::uuid AS key_id,
                       ?::date AS day, ?::date AS month
            ), k AS (
                SELECT k.id, k.daily_budget_usd, k.monthly_budget_usd
                  FROM p JOIN api_keys k
                    ON k.id = COALESCE(p.key_id, (SELECT j.api_key_id FROM jobs j WHERE j.id = p.job_id))
            ), caps (scope, starts, cap, provider, key_id) AS (
                SELECT 'provider:' || p.provider, p.day, p.provider_cap, p.provider, NULL::uuid
                  FROM p WHERE p.provider_cap IS NOT NULL
                UNION ALL
                SELECT 'key:' || k.id || ':day', p.day, k.daily_budget_usd, NULL, k.id
                  FROM p, k WHERE k.daily_budget_usd IS NOT NULL
                UNION ALL
                SELECT 'key:' || k.id || ':month', p.month, k.monthly_budget_usd, NULL, k.id
                  FROM p, k WHERE k.monthly_budget_usd IS NOT NULL
            )""";

    /**
     * Opens the ledger row of every budget the call falls under that has none yet for this period,
     * starting from what the audit already holds for it (a budget set mid-period), and counts the
     * budgets: 0 means the call falls under none.
     */
    static final String OPEN = """
            WITH %s, opened AS (
                INSERT INTO budget_ledger (scope, starts, cap_usd, base_usd)
                SELECT c.scope, c.starts, c.cap,
                       CASE WHEN c.key_id IS NULL THEN
                           (SELECT COALESCE(sum(a.cost_usd), 0) FROM provider_attempts a
                             WHERE a.provider = c.provider AND a.started_at >= (c.starts::timestamp AT TIME ZONE 'UTC')
                               AND a.billable IN ('yes', 'unknown'))
                         + (SELECT COALESCE(sum(a.cost_usd), 0) FROM chat_attempts a
                             WHERE a.provider = c.provider AND a.started_at >= (c.starts::timestamp AT TIME ZONE 'UTC')
                               AND a.billable IN ('yes', 'unknown'))
                       ELSE
                           (SELECT COALESCE(sum(a.cost_usd), 0) FROM jobs j JOIN provider_attempts a ON a.job_id = j.id
                             WHERE j.api_key_id = c.key_id AND a.started_at >= (c.starts::timestamp AT TIME ZONE 'UTC')
                               AND a.billable IN ('yes', 'unknown'))
                         + (SELECT COALESCE(sum(a.cost_usd), 0) FROM chat_attempts a
                             WHERE a.api_key_id = c.key_id AND a.started_at >= (c.starts::timestamp AT TIME ZONE 'UTC')
                               AND a.billable IN ('yes', 'unknown'))
                       END
                  FROM caps c
                 WHERE NOT EXISTS (SELECT 1 FROM budget_ledger l WHERE l.scope = c.scope AND l.starts = c.starts)
                ON CONFLICT (scope, starts) DO NOTHING
            )
            SELECT count(*) FROM caps
            """.formatted(CAPS);

    /**
     * The hold, one statement: locks the call's ledger rows in one order (scope, period), so
     * concurrent holds queue on them and each sees the others' holds, and holds the expected cost on
     * all of them only if every one has room; else names the first without room and holds nothing.
     * The lock is taken (the uncorrelated count of {@code refused} runs first) before any row changes.
     */
    static final String HOLD = """
            WITH %s, q AS (
                SELECT ?::numeric AS expected
            ), locked AS (
                SELECT l.scope, l.starts, c.cap,
                       l.base_usd + l.spent_usd + l.reserved_usd + q.expected <= c.cap AS room
                  FROM budget_ledger l
                  JOIN caps c ON c.scope = l.scope AND c.starts = l.starts
                 CROSS JOIN q
                 ORDER BY l.scope, l.starts
                   FOR UPDATE OF l
            ), refused AS (
                SELECT scope, cap FROM locked WHERE NOT room ORDER BY scope, starts LIMIT 1
            ), counted AS (
                UPDATE budget_ledger l
                   SET reserved_usd = l.reserved_usd + (SELECT expected FROM q), cap_usd = locked.cap
                  FROM locked
                 WHERE (SELECT count(*) FROM refused) = 0
                   AND l.scope = locked.scope AND l.starts = locked.starts
                RETURNING l.scope, l.starts
            ), held AS (
                INSERT INTO budget_holds (id, kind, provider, scopes, starts, expected_usd, cost_usd, held_until, created_at)
                SELECT ?, ?, ?, array_agg(c.scope ORDER BY c.scope, c.starts), array_agg(c.starts ORDER BY c.scope, c.starts),
                       q.expected, q.expected, ?, ?
                  FROM counted c CROSS JOIN q
                 GROUP BY q.expected
                RETURNING id
            )
            SELECT (SELECT scope FROM refused), (SELECT cap FROM refused), (SELECT count(*) FROM held)
            """.formatted(CAPS);

    /**
     * Settles a hold to (billable, cost): the hold leaves the held sum if it was open, the settled
     * sum moves by the difference between what it counted and what it counts now, and a settled sum
     * that grew to 50 % or 100 % of a cap writes that threshold's event once (a provider's also to
     * {@code provider_events}). Ledger rows are locked in the hold's order before any changes.
     */
    static final String SETTLE = """
            WITH p AS (
                SELECT ?::uuid AS id, ?::text AS billable, ?::numeric AS cost, ?::timestamptz AS at
            ), h AS (
                SELECT h.open, h.billable, h.cost_usd, h.expected_usd, h.scopes, h.starts
                  FROM budget_holds h JOIN p ON h.id = p.id
                   FOR UPDATE OF h
            ), d AS (
                SELECT CASE WHEN h.open THEN -h.expected_usd ELSE 0 END AS held,
                       (CASE WHEN p.billable = 'no' THEN 0 ELSE p.cost END)
                     - (CASE WHEN h.open OR h.billable = 'no' THEN 0 ELSE h.cost_usd END) AS spent
                  FROM h, p
            ), s AS (
                SELECT unnest(h.scopes) AS scope, unnest(h.starts) AS starts FROM h
            ), locked AS (
                SELECT l.scope, l.starts FROM budget_ledger l JOIN s ON s.scope = l.scope AND s.starts = l.starts
                 ORDER BY l.scope, l.starts
                   FOR UPDATE OF l
            ), moved AS (
                UPDATE budget_ledger l
                   SET reserved_usd = l.reserved_usd + d.held, spent_usd = l.spent_usd + d.spent
                  FROM locked, d
                 WHERE (SELECT count(*) FROM locked) > 0
                   AND l.scope = locked.scope AND l.starts = locked.starts
                RETURNING l.scope, l.starts, l.base_usd + l.spent_usd AS spent, l.cap_usd, d.spent AS grew
            ), settled AS (
                UPDATE budget_holds b
                   SET open = false, billable = p.billable,
                       cost_usd = CASE WHEN p.billable = 'no' THEN 0 ELSE p.cost END, settled_at = p.at
                  FROM p
                 WHERE b.id = p.id
            ), crossed AS (
                INSERT INTO budget_events (scope, starts, type, spent_usd, cap_usd, at)
                SELECT m.scope, m.starts, t.type, m.spent, m.cap_usd, p.at
                  FROM moved m
                 CROSS JOIN p
                 CROSS JOIN (VALUES ('budget.warning', 0.5), ('budget.exhausted', 1.0)) AS t (type, share)
                 WHERE m.grew > 0 AND m.spent >= m.cap_usd * t.share
                ON CONFLICT DO NOTHING
                RETURNING scope, starts, type, spent_usd, cap_usd, at
            )
            INSERT INTO provider_events (provider, type, detail, day, at)
            SELECT substr(scope, length('provider:') + 1), type,
                   jsonb_build_object('spent_usd', spent_usd, 'budget_usd', cap_usd), starts, at
              FROM crossed
             WHERE scope LIKE 'provider:%'
            ON CONFLICT (provider, type, day) WHERE day IS NOT NULL DO NOTHING
            """;

    /**
     * Holds the sweeper settles: open ones past their time (a job's once its attempt is no longer in
     * flight, or was never written), and a job's hold settled as unknown whose attempt has since
     * been decided (reconciled, resolved by an operator).
     */
    static final String DUE = """
            (SELECT h.id, h.kind, h.expected_usd, a.id IS NOT NULL AS attempted, a.billable, a.cost_usd
               FROM budget_holds h
               LEFT JOIN provider_attempts a ON h.kind = 'job' AND a.id = h.id
              WHERE h.open AND h.held_until < ?
                AND (a.id IS NULL OR a.status NOT IN ('sending', 'submitted'))
              ORDER BY h.held_until
              LIMIT ?)
            UNION ALL
            (SELECT h.id, h.kind, h.expected_usd, true, a.billable, a.cost_usd
               FROM budget_holds h
               JOIN provider_attempts a ON a.id = h.id
              WHERE NOT h.open AND h.billable = 'unknown' AND h.kind = 'job' AND h.created_at >= ?
                AND (a.billable <> 'unknown' OR a.cost_usd <> h.cost_usd)
              LIMIT ?)
            """;

    /** A provider's settled and held spend of one day: the ledger's, else (no hold yet today) the audit's. */
    static final String PROVIDER_SPEND = """
            SELECT COALESCE(
                       (SELECT base_usd + spent_usd FROM budget_ledger WHERE scope = 'provider:' || ? AND starts = ?),
                       (SELECT COALESCE(sum(cost_usd), 0) FROM provider_attempts
                         WHERE provider = ? AND started_at >= ? AND billable IN ('yes', 'unknown'))
                     + (SELECT COALESCE(sum(cost_usd), 0) FROM chat_attempts
                         WHERE provider = ? AND started_at >= ? AND billable IN ('yes', 'unknown'))),
                   COALESCE((SELECT reserved_usd FROM budget_ledger WHERE scope = 'provider:' || ? AND starts = ?), 0)
            """;

    /**
     * What a key has spent since a time: its jobs' attempts and its chat attempts, billed or unknown
     * (a job's attempt in flight counts at its expected cost), and its chat attempts in flight.
     */
    static final String KEY_SPEND = """
            SELECT (SELECT COALESCE(sum(a.cost_usd), 0)
                      FROM jobs j JOIN provider_attempts a ON a.job_id = j.id
                     WHERE j.api_key_id = ? AND j.created_at >= ? AND a.billable IN ('yes', 'unknown'))
                 + (SELECT COALESCE(sum(cost_usd), 0) FROM chat_attempts
                     WHERE api_key_id = ? AND started_at >= ? AND billable IN ('yes', 'unknown'))
                 + (SELECT COALESCE(sum(expected_usd), 0) FROM budget_holds
                     WHERE open AND kind = 'chat' AND created_at >= ?
                       AND scopes && ARRAY['key:' || ? || ':day', 'key:' || ? || ':month'])
            """;
}
