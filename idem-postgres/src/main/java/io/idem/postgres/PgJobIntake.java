package io.idem.postgres;

import io.idem.core.domain.JobSpec;
import io.idem.core.spi.JobIntake;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * Accepts jobs durably: the job, its {@code job.created} event and its idempotency key are written
 * by one statement in one commit, before the client hears 202 (DESIGN §4). A second request with
 * the same key finds the first one's row (the unique index makes it wait for that commit) and
 * compares request hashes. A key whose accept is older than the claim's {@code countsFrom} is
 * taken over in the same statement (an implicit key of a keyless request past its merge window).
 * Thread-safe.
 */
public final class PgJobIntake implements JobIntake {
    private final Database db;

    public PgJobIntake(Database db) {
        this.db = db;
    }

    private static final String INSERT_JOB = """
            INSERT INTO jobs (id, owner, state, kind, lane, model, prompt, size, n, timeout_seconds,
                              candidates, pinned, simulate, metadata, created_at, updated_at, api_key_id,
                              deadline_seconds, deadline_at, max_cost_usd, callback_url,
                              video_seconds, video_resolution, video_aspect_ratio, video_fps, video_seed,
                              video_negative_prompt, video_start_image, video_end_image, video_audio,
                              image_options)
            SELECT ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?, jsonb_object(?::text[], ?::text[]), ?::jsonb, ?, ?, ?,
                   ?, ?, ?::numeric, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
            """ + JobRows.IMAGE_OPTIONS + "\n";

    private static final String INSERT_EVENT = """
            INSERT INTO job_events (job_id, type, to_state, actor, detail, at)
            SELECT id, 'job.created', 'queued', ?, jsonb_build_object('candidates', to_jsonb(candidates),
                   'skipped', jsonb_object(?::text[], ?::text[])), created_at
            """;

    /** The job and its event; the statement's row count is the event's (always 1). */
    private static final String ACCEPT = """
            WITH job AS (%s RETURNING id, candidates, created_at)
            %s FROM job
            """.formatted(INSERT_JOB, INSERT_EVENT);

    private static final String ACCEPT_WITH_KEY = """
            WITH key AS (
                INSERT INTO idempotency_keys (digest, owner, request_hash, job_id, created_at, expires_at, request_id)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (digest) DO UPDATE
                   SET request_hash = EXCLUDED.request_hash, job_id = EXCLUDED.job_id,
                       created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
                       request_id = EXCLUDED.request_id
                 WHERE idempotency_keys.expires_at <= EXCLUDED.created_at OR idempotency_keys.created_at < ?
                RETURNING job_id
            ), job AS (%s WHERE EXISTS (SELECT 1 FROM key) RETURNING id, candidates, created_at)
            %s FROM job
            """.formatted(INSERT_JOB, INSERT_EVENT);

    private static final String FIND_KEY = """
            SELECT request_hash, job_id, request_id FROM idempotency_keys WHERE digest = ? FOR SHARE
            """;

    @Override
    public Accepted accept(String owner, UUID apiKeyId, JobSpec spec, IdempotencyClaim key, Instant now) {
        UUID jobId = UUID.randomUUID();
        // accepts share commits, and round trips, with each other's (each returns only once its own
        // job is durable); the row count is the job's event: 0 when the key was taken before
        if (key == null) {
            return db.inSharedTransaction(new BatchedWork<>(
                    ACCEPT,
                    (c, ps) -> {
                        int next = bindJob(c, ps, 1, jobId, owner, apiKeyId, spec, now);
                        bindEvent(c, ps, next, owner, spec);
                    },
                    (c, rows) -> {
                        if (rows != 1) {
                            throw new UnexpectedRowCountException("accept", jobId, rows);
                        }
                        return new Accepted.Created(jobId, now);
                    }));
        }
        return db.inSharedTransaction(new BatchedWork<>(
                ACCEPT_WITH_KEY,
                (c, ps) -> {
                    ps.setBytes(1, key.digest());
                    ps.setString(2, owner);
                    ps.setBytes(3, key.requestHash());
                    ps.setObject(4, jobId);
                    ps.setTimestamp(5, JobRows.timestamp(now));
                    ps.setTimestamp(6, JobRows.timestamp(now.plus(key.retention())));
                    ps.setString(7, key.requestId());
                    ps.setTimestamp(8, JobRows.timestamp(key.countsFrom()));
                    int next = bindJob(c, ps, 9, jobId, owner, apiKeyId, spec, now);
                    bindEvent(c, ps, next, owner, spec);
                },
                (c, rows) -> rows == 1 ? new Accepted.Created(jobId, now) : existing(c, key)));
    }

    private static Accepted existing(Connection c, IdempotencyClaim key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(FIND_KEY)) {
            ps.setBytes(1, key.digest());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("idempotency key vanished between insert and read");
                }
                UUID original = rs.getObject("job_id", UUID.class);
                return Arrays.equals(rs.getBytes("request_hash"), key.requestHash())
                        ? new Accepted.Replayed(original, java.util.Optional.ofNullable(rs.getString("request_id")))
                        : new Accepted.KeyReused(original);
            }
        }
    }

    private static void bindEvent(Connection c, PreparedStatement ps, int from, String owner, JobSpec spec)
            throws SQLException {
        List<String> keys = new ArrayList<>(spec.skipped().keySet());
        ps.setString(from, "client:" + owner);
        ps.setArray(from + 1, c.createArrayOf("text", keys.toArray()));
        ps.setArray(
                from + 2,
                c.createArrayOf("text", keys.stream().map(spec.skipped()::get).toArray()));
    }

    /** Binds the job's columns from {@code from}; returns the next parameter index. */
    private static int bindJob(
            Connection c,
            PreparedStatement ps,
            int from,
            UUID id,
            String owner,
            UUID apiKeyId,
            JobSpec spec,
            Instant now)
            throws SQLException {
        int i = from;
        ps.setObject(i++, id);
        ps.setString(i++, owner);
        ps.setString(i++, spec.kind().wire());
        ps.setString(i++, spec.lane());
        ps.setString(i++, spec.model());
        ps.setString(i++, spec.prompt());
        ps.setString(i++, spec.size());
        ps.setInt(i++, spec.n());
        ps.setInt(i++, spec.timeoutSeconds());
        ps.setArray(i++, c.createArrayOf("text", spec.candidates().toArray()));
        ps.setBoolean(i++, spec.pinned());
        List<String> keys = new ArrayList<>(spec.simulate().keySet());
        List<String> values = keys.stream().map(spec.simulate()::get).toList();
        ps.setArray(i++, c.createArrayOf("text", keys.toArray()));
        ps.setArray(i++, c.createArrayOf("text", values.toArray()));
        ps.setString(i++, spec.metadataJson());
        ps.setTimestamp(i++, JobRows.timestamp(now));
        ps.setTimestamp(i++, JobRows.timestamp(now));
        ps.setObject(i++, apiKeyId);
        ps.setInt(i++, spec.deadlineSeconds());
        ps.setTimestamp(i++, JobRows.timestamp(now.plusSeconds(spec.deadlineSeconds())));
        ps.setBigDecimal(i++, spec.maxCostUsd().orElse(null));
        ps.setString(i++, spec.callbackUrl().orElse(null));
        return JobRows.bindImage(ps, JobRows.bindVideo(ps, i, spec.video()), spec.image());
    }

    @Override
    public int purgeExpiredKeys(Instant now, int limit) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    DELETE FROM idempotency_keys WHERE digest IN (
                        SELECT digest FROM idempotency_keys WHERE expires_at <= ? LIMIT ?)
                    """)) {
                ps.setTimestamp(1, JobRows.timestamp(now));
                ps.setInt(2, limit);
                return ps.executeUpdate();
            }
        });
    }
}
