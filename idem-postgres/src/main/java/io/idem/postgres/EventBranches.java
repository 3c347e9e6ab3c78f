package io.idem.postgres;

import io.idem.core.spi.EventReads;
import io.idem.core.spi.EventSource;
import java.util.Optional;
import java.util.Set;

/**
 * The event stream as one statement: a branch per source that can hold a matching event, each
 * newest first and cut at the page size, merged in the stream's order (time, source, the source's
 * id; all descending). Each branch reads its source's {@code (at, id)} index from the cursor on.
 */
final class EventBranches {
    private static final String COLUMNS = "rank, seq, type, at, job_id, provider, model, data";

    private EventBranches() {}

    /** The sources a filter can find events in: by type, and scoped to what an owner may see. */
    static Set<EventSource> sources(EventReads.Filter filter) {
        Set<EventSource> sources = EventSource.holding(filter.types());
        if (filter.owner() != null) {
            sources.remove(EventSource.PROVIDER);
        }
        if (filter.jobId().isPresent()) {
            sources.retainAll(Set.of(EventSource.JOB));
        }
        if (filter.provider().isPresent()) {
            sources.remove(EventSource.BUDGET);
        }
        return sources;
    }

    /** The page's statement; {@code null} when no source can hold a matching event. */
    static SqlQuery query(EventReads.Filter filter, EventReads.Cursor after, int limit) {
        Set<EventSource> sources = sources(filter);
        if (sources.isEmpty()) {
            return null;
        }
        SqlQuery q = new SqlQuery().sql("SELECT " + COLUMNS + " FROM (");
        boolean first = true;
        for (EventSource source : sources) {
            q.sql(first ? "(" : " UNION ALL (");
            branch(q, source, filter, after, limit);
            q.sql(")");
            first = false;
        }
        return q.sql(") events ORDER BY at DESC, rank DESC, seq DESC LIMIT ?", limit);
    }

    private static void branch(
            SqlQuery q, EventSource source, EventReads.Filter filter, EventReads.Cursor after, int limit) {
        String alias = switch (source) {
            case JOB -> "e";
            case PROVIDER -> "p";
            case AUDIT -> "a";
            case BUDGET -> "b";
        };
        q.sql(select(source));
        q.sql(" WHERE true");
        scope(q, source, filter.owner());
        if (!filter.types().isEmpty()) {
            q.sql(" AND " + alias + ".type = ANY (?)", (Object) filter.types().toArray(String[]::new));
        }
        filter.provider().ifPresent(p -> q.sql(" AND " + providerColumn(source) + " = ?", p));
        filter.jobId().ifPresent(id -> q.sql(" AND e.job_id = ?", id));
        filter.window().since().ifPresent(since -> q.sql(" AND " + alias + ".at >= ?", since));
        filter.window().until().ifPresent(until -> q.sql(" AND " + alias + ".at < ?", until));
        if (after != null) {
            after(q, alias, source, after);
        }
        q.sql(" ORDER BY " + alias + ".at DESC, " + alias + ".id DESC LIMIT ?", limit);
    }

    /** What follows the cursor in the stream's order, from this source. */
    private static void after(SqlQuery q, String alias, EventSource source, EventReads.Cursor after) {
        int order = Integer.compare(source.ordinal(), after.source().ordinal());
        if (order < 0) {
            q.sql(" AND " + alias + ".at <= ?", after.at());
        } else if (order == 0) {
            q.sql(" AND (" + alias + ".at, " + alias + ".id) < (?, ?)", after.at(), after.seq());
        } else {
            q.sql(" AND " + alias + ".at < ?", after.at());
        }
    }

    private static String select(EventSource source) {
        int rank = source.ordinal();
        return switch (source) {
            case JOB ->
                "SELECT " + rank + " AS rank, e.id AS seq, e.type, e.at, e.job_id,"
                        + " e.detail->>'provider' AS provider, NULL::text AS model,"
                        + " (e.detail || jsonb_strip_nulls(jsonb_build_object('from_state', e.from_state,"
                        + " 'to_state', e.to_state, 'actor', e.actor)))::text AS data"
                        + " FROM job_events e";
            case PROVIDER ->
                "SELECT " + rank + " AS rank, p.id AS seq, p.type, p.at, NULL::uuid AS job_id,"
                        + " p.provider, NULL::text AS model, p.detail::text AS data FROM provider_events p";
            case AUDIT ->
                "SELECT " + rank + " AS rank, a.id AS seq, a.type, a.at, NULL::uuid AS job_id,"
                        + " a.detail->>'from_provider' AS provider, a.detail->>'from_model' AS model,"
                        + " (a.detail || jsonb_strip_nulls(jsonb_build_object('actor', a.actor,"
                        + " 'subject', a.subject)))::text AS data FROM audit_events a";
            case BUDGET ->
                "SELECT " + rank + " AS rank, b.id AS seq, b.type, b.at, NULL::uuid AS job_id,"
                        + " NULL::text AS provider, NULL::text AS model,"
                        + " jsonb_build_object('key_id', split_part(b.scope, ':', 2), 'period',"
                        + " split_part(b.scope, ':', 3), 'starts', b.starts::text, 'spent_usd', b.spent_usd,"
                        + " 'budget_usd', b.cap_usd)::text AS data FROM budget_events b";
        };
    }

    /** What an owner may see of this source; everything when {@code owner} is null. */
    private static void scope(SqlQuery q, EventSource source, String owner) {
        if (source == EventSource.BUDGET) {
            // a provider's thresholds are provider events; only the keys' are here
            q.sql(" AND b.scope LIKE 'key:%'");
        }
        if (owner == null) {
            return;
        }
        switch (source) {
            case JOB -> q.sql(" AND EXISTS (SELECT 1 FROM jobs j WHERE j.id = e.job_id AND j.owner = ?)", owner);
            case AUDIT ->
                // only the failovers of the owner's own calls (their subject is the call id)
                q.sql(
                        " AND a.type = 'api:model_failover' AND EXISTS (SELECT 1 FROM chat_attempts c"
                                + " WHERE c.call_id = CASE WHEN a.type = 'api:model_failover' THEN a.subject::uuid END"
                                + " AND c.owner = ?)",
                        owner);
            case BUDGET ->
                q.sql(
                        " AND EXISTS (SELECT 1 FROM api_keys k WHERE k.owner = ?"
                                + " AND b.scope IN ('key:' || k.id || ':day', 'key:' || k.id || ':month'))",
                        owner);
            case PROVIDER -> throw new IllegalStateException("an owner sees no provider events");
        }
    }

    private static String providerColumn(EventSource source) {
        return switch (source) {
            case JOB -> "e.detail->>'provider'";
            case PROVIDER -> "p.provider";
            case AUDIT -> "a.detail->>'from_provider'";
            case BUDGET -> throw new IllegalStateException("key budget events name no provider");
        };
    }

    /** The event a row of the statement is. */
    static EventReads.Event event(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new EventReads.Event(
                EventSource.values()[rs.getInt("rank")],
                rs.getLong("seq"),
                rs.getString("type"),
                JobRows.instant(rs, "at"),
                Optional.ofNullable(rs.getObject("job_id", java.util.UUID.class)),
                Optional.ofNullable(rs.getString("provider")),
                Optional.ofNullable(rs.getString("model")),
                rs.getString("data"));
    }
}
