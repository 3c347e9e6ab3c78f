package io.idem.postgres;

import io.idem.core.domain.JobState;
import io.idem.core.domain.JobTransitions;
import io.idem.core.outcome.Outcome;
import io.idem.core.spi.JobMove;
import io.idem.core.spi.Lease;
import io.idem.core.spi.Settlement;
import io.idem.core.spi.StoredAsset;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * A called attempt's settle. One that ends the job's run is one statement: the attempt's outcome,
 * its kept results and the job's fenced move with its event. Every part of a data-modifying WITH
 * runs exactly once whether or not another reads it, so the outcome and the results land on the
 * attempt even when the lease is gone (a late result is never dropped), and only whether the move
 * returned the attempt says whether the lease held, as when they were three statements. Settles
 * that share a commit are one statement with a row each ({@link RowWork}).
 */
final class SettleSql {
    /** An attempt's outcome: its columns, and their parameters as {@link #bindOutcome} sets them. */
    private static final String OUTCOME_INPUT =
            "attempt_id, status, error_class, error_code, http_status, request_id, latency_ms, billable, cost_usd, at";

    private static final String OUTCOME_ROW =
            "?::uuid, ?::text, ?::text, ?::text, ?::integer, ?::text, ?::bigint, ?::text, ?::numeric, ?::timestamptz";

    /** Records the outcome of each attempt of {@code input AS i}. */
    private static final String OUTCOME = """
            UPDATE provider_attempts a
               SET status = i.status, error_class = i.error_class, error_code = i.error_code,
                   http_status = i.http_status, provider_request_id = COALESCE(i.request_id, a.provider_request_id),
                   latency_ms = i.latency_ms, billable = i.billable, cost_usd = i.cost_usd, finished_at = i.at,
                   billing_known_at = COALESCE(a.billing_known_at, CASE WHEN i.billable <> 'unknown' THEN i.at END)
              FROM input i
             WHERE a.id = i.attempt_id""";

    private static final String RECORD_OUTCOME =
            "WITH input (" + OUTCOME_INPUT + ") AS (VALUES (" + OUTCOME_ROW + "))\n" + OUTCOME;

    /** Kept results as rows {@code k}, from six arrays bound by {@link #bindAssetRows}. */
    static final String ASSET_ROWS = """
            unnest(?::uuid[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?::bytea[])
                AS k (id, mime_type, bytes, sha256, location, content)""";

    /**
     * The settles of a batch that end their jobs' runs, one row each: the attempts' outcomes, their
     * kept results, and the jobs' fenced moves with their events. It returns the attempt of each
     * move that held. Rows name their attempt and job by primary key.
     */
    static final RowWork.Statement SETTLE_AND_END = new RowWork.Statement(
            """
            WITH input (%s, asset_ids, asset_types, asset_bytes, asset_sha256, asset_locations,
                        asset_contents, %s) AS (VALUES %%s),
            outcome AS (%s
                RETURNING a.id, a.job_id
            ), kept AS (
                INSERT INTO assets (id, job_id, attempt_id, mime_type, bytes, sha256, location, created_at, content)
                SELECT k.id, o.job_id, o.id, k.mime_type, k.bytes, k.sha256, k.location, i.at, k.content
                  FROM outcome o JOIN input i ON i.attempt_id = o.id,
                       unnest(i.asset_ids, i.asset_types, i.asset_bytes, i.asset_sha256, i.asset_locations,
                              i.asset_contents) AS k (id, mime_type, bytes, sha256, location, content)
                ON CONFLICT (id) DO NOTHING
            ), moved AS (%s
                RETURNING jobs.id, i.attempt_id
            ), events AS (%s
            )
            SELECT attempt_id FROM moved
            """.formatted(
                            OUTCOME_INPUT,
                            JobTransitionsSql.END_INPUT,
                            OUTCOME,
                            JobTransitionsSql.MOVED,
                            JobTransitionsSql.movedEvents("i.attempt_id = m.attempt_id")),
            "(" + OUTCOME_ROW + ", ?::uuid[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?::bytea[], "
                    + JobTransitionsSql.END_ROW + ")");

    private SettleSql() {}

    /** Records the outcome alone (a failover: the job's move is an event, written apart). */
    static void recordOutcome(Connection c, Settlement settlement, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(RECORD_OUTCOME)) {
            bindOutcome(ps, 1, settlement, now);
            ps.executeUpdate();
        }
    }

    /**
     * Records the outcome and results and ends the job's run as the settlement says, in one
     * statement; {@code then} gets whether the move held ({@code false}: the lease was lost) and
     * may write more beside it. Settles of many jobs that share a commit share the statement.
     */
    static <T> RowWork<T> settleAndEnd(
            Lease lease, Settlement settlement, String actor, Instant now, RowWork.Written<T> then) {
        JobTransitionsSql.End end = JobTransitionsSql.endOf(settlement);
        JobTransitions.check(JobState.RUNNING, end.to());
        List<StoredAsset> kept = switch (settlement.move()) {
            case JobMove.Succeed succeed -> succeed.assets();
            case JobMove.Fail fail -> fail.withheld();
            default -> List.of();
        };
        return new RowWork<>(
                SETTLE_AND_END,
                settlement.attemptId(),
                (c, ps, first) -> JobTransitionsSql.bindEnd(
                        ps, bindAssetRows(c, ps, bindOutcome(ps, first, settlement, now), kept), lease, end, actor),
                then);
    }

    /** Binds {@link #ASSET_ROWS} from parameter {@code from}; returns the next. */
    static int bindAssetRows(Connection c, PreparedStatement ps, int from, List<StoredAsset> kept) throws SQLException {
        int i = from;
        ps.setArray(
                i++, c.createArrayOf("uuid", kept.stream().map(StoredAsset::id).toArray()));
        ps.setArray(
                i++,
                c.createArrayOf("text", kept.stream().map(StoredAsset::mimeType).toArray()));
        ps.setArray(
                i++,
                c.createArrayOf("bigint", kept.stream().map(StoredAsset::bytes).toArray()));
        ps.setArray(
                i++,
                c.createArrayOf("text", kept.stream().map(StoredAsset::sha256).toArray()));
        ps.setArray(
                i++,
                c.createArrayOf("text", kept.stream().map(StoredAsset::location).toArray()));
        ps.setArray(
                i++,
                c.createArrayOf("bytea", kept.stream().map(StoredAsset::content).toArray(byte[][]::new)));
        return i;
    }

    /** Binds an {@link #OUTCOME_ROW} from {@code from}; returns the next parameter index. */
    private static int bindOutcome(PreparedStatement ps, int from, Settlement settlement, Instant now)
            throws SQLException {
        Outcome outcome = settlement.outcome();
        int i = from;
        ps.setObject(i++, settlement.attemptId());
        ps.setString(i++, outcome.attemptStatus().wire());
        ps.setString(i++, outcome.errorClass());
        ps.setString(i++, outcome.errorCode());
        ps.setInt(i++, outcome.httpStatus());
        ps.setString(i++, outcome.providerRequestId().orElse(null));
        ps.setLong(i++, settlement.latencyMs());
        ps.setString(i++, outcome.billable().wire());
        ps.setBigDecimal(i++, settlement.costUsd());
        ps.setTimestamp(i++, JobRows.timestamp(now));
        return i;
    }
}
