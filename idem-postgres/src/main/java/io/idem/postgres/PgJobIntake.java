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

    /**
     * One accepted job's parameters, in the order {@link #bindJob} and {@link #bindEvent} set them:
     * the job's columns, its video and image parameters, then its event's.
     */
    private static final String JOB_ROW = """
            ?::uuid, ?::text, ?::text, ?::text, ?::text, ?::text, ?::text, ?::integer, ?::integer, ?::text[],
            ?::boolean, ?::text[], ?::text[], ?::jsonb, ?::timestamptz, ?::timestamptz, ?::uuid, ?::integer,
            ?::timestamptz, ?::numeric, ?::text,
            ?::integer, ?::text, ?::text, ?::integer, ?::bigint, ?::text, ?::text, ?::text, ?::boolean,
            ?::text, ?::text, ?::text, ?::text, ?::integer, ?::text, ?::text, ?::boolean[], ?::text[], ?::text[],
            ?::text, ?::text[], ?::text[]""";

    private static final String JOB_INPUT = """
            id, owner, kind, lane, model, prompt, size, n, timeout_seconds, candidates,
            pinned, simulate_keys, simulate_values, metadata, created_at, updated_at, api_key_id, deadline_seconds,
            deadline_at, max_cost_usd, callback_url,
            video_seconds, video_resolution, video_aspect_ratio, video_fps, video_seed, video_negative_prompt,
            video_start_image, video_end_image, video_audio,
            image_quality, image_style, image_background, image_format, image_compression, image_moderation,
            image_provider, image_masks, image_types, image_base64,
            actor, skipped_keys, skipped_values""";

    /** The jobs of the input rows, from {@code input AS i}; {@code %s} is where the rows are chosen. */
    private static final String INSERT_JOBS = """
            INSERT INTO jobs (id, owner, state, kind, lane, model, prompt, size, n, timeout_seconds,
                              candidates, pinned, simulate, metadata, created_at, updated_at, api_key_id,
                              deadline_seconds, deadline_at, max_cost_usd, callback_url,
                              video_seconds, video_resolution, video_aspect_ratio, video_fps, video_seed,
                              video_negative_prompt, video_start_image, video_end_image, video_audio,
                              image_options)
            SELECT i.id, i.owner, 'queued', i.kind, i.lane, i.model, i.prompt, i.size, i.n, i.timeout_seconds,
                   i.candidates, i.pinned, jsonb_object(i.simulate_keys, i.simulate_values), i.metadata,
                   i.created_at, i.updated_at, i.api_key_id, i.deadline_seconds, i.deadline_at, i.max_cost_usd,
                   i.callback_url, i.video_seconds, i.video_resolution, i.video_aspect_ratio, i.video_fps,
                   i.video_seed, i.video_negative_prompt, i.video_start_image, i.video_end_image, i.video_audio,
                   NULLIF(jsonb_strip_nulls(jsonb_build_object('quality', i.image_quality, 'style', i.image_style,
                       'background', i.image_background, 'output_format', i.image_format,
                       'output_compression', i.image_compression, 'moderation', i.image_moderation,
                       'provider_options', i.image_provider,
                       'inputs', (SELECT jsonb_agg(jsonb_build_object('mask', m, 'mime_type', t, 'base64', b) ORDER BY o)
                                  FROM unnest(i.image_masks, i.image_types, i.image_base64)
                                       WITH ORDINALITY AS u(m, t, b, o)))),
                       '{}'::jsonb)
              FROM input AS i %s
            RETURNING id, candidates, created_at""";

    /** Each written job's {@code job.created} event; returns the ids of the jobs written. */
    private static final String INSERT_EVENTS = """
            INSERT INTO job_events (job_id, type, to_state, actor, detail, at)
            SELECT job.id, 'job.created', 'queued', i.actor, jsonb_build_object('candidates', to_jsonb(job.candidates),
                   'skipped', jsonb_object(i.skipped_keys, i.skipped_values)), job.created_at
              FROM job JOIN input AS i ON i.id = job.id
            RETURNING job_id""";

    /** Jobs and their events, one row each (the rows' text goes where the {@code %%s} is). */
    private static final RowWork.Statement ACCEPT = RowWork.Statement.answeredByReads(
            """
            WITH input (%s) AS (VALUES %%s),
            job AS (%s)
            %s
            """.formatted(JOB_INPUT, INSERT_JOBS.replace("%s", ""), INSERT_EVENTS), "(" + JOB_ROW + ")");

    /**
     * The same with an idempotency key each: a job is written only where its key is new, or old
     * enough to be taken over (expired, or accepted before the claim's {@code countsFrom}). Two rows
     * with one key in one statement make it fail, and their batch runs each caller alone.
     */
    private static final RowWork.Statement ACCEPT_WITH_KEY = RowWork.Statement.answeredByReads(
            """
            WITH input (digest, request_hash, expires_at, request_id, counts_from, %s) AS (VALUES %%s),
            key AS (
                INSERT INTO idempotency_keys (digest, owner, request_hash, job_id, created_at, expires_at, request_id)
                SELECT digest, owner, request_hash, id, created_at, expires_at, request_id FROM input
                ON CONFLICT (digest) DO UPDATE
                   SET request_hash = EXCLUDED.request_hash, job_id = EXCLUDED.job_id,
                       created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
                       request_id = EXCLUDED.request_id
                 WHERE idempotency_keys.expires_at <= EXCLUDED.created_at
                    OR idempotency_keys.created_at
                       < (SELECT counts_from FROM input WHERE input.digest = EXCLUDED.digest)
                RETURNING job_id
            ), job AS (%s)
            %s
            """.formatted(JOB_INPUT, INSERT_JOBS.formatted("WHERE i.id IN (SELECT job_id FROM key)"), INSERT_EVENTS),
            "(?::bytea, ?::bytea, ?::timestamptz, ?::text, ?::timestamptz, " + JOB_ROW + ")");

    private static final String FIND_KEY = """
            SELECT request_hash, job_id, request_id FROM idempotency_keys WHERE digest = ? FOR SHARE
            """;

    @Override
    public Accepted accept(String owner, UUID apiKeyId, JobSpec spec, IdempotencyClaim key, Instant now) {
        UUID jobId = UUID.randomUUID();
        // accepts share commits, and statements, with each other's (each returns only once its own
        // job is durable); a job with a key is not written when the key was taken before
        if (key == null) {
            return db.inSharedTransaction(new RowWork<>(
                    ACCEPT,
                    jobId,
                    (c, ps, first) ->
                            bindEvent(c, ps, bindJob(c, ps, first, jobId, owner, apiKeyId, spec, now), owner, spec),
                    (c, written) -> {
                        if (!written) {
                            throw new UnexpectedRowCountException("accept", jobId, 0);
                        }
                        return new Accepted.Created(jobId, now);
                    }));
        }
        return db.inSharedTransaction(new RowWork<>(
                ACCEPT_WITH_KEY,
                jobId,
                (c, ps, first) -> {
                    ps.setBytes(first, key.digest());
                    ps.setBytes(first + 1, key.requestHash());
                    ps.setTimestamp(first + 2, JobRows.timestamp(now.plus(key.retention())));
                    ps.setString(first + 3, key.requestId());
                    ps.setTimestamp(first + 4, JobRows.timestamp(key.countsFrom()));
                    int next = bindJob(c, ps, first + 5, jobId, owner, apiKeyId, spec, now);
                    return bindEvent(c, ps, next, owner, spec);
                },
                (c, written) -> written ? new Accepted.Created(jobId, now) : existing(c, key)));
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

    /** Binds the event's parameters from {@code from}; returns the next parameter index. */
    private static int bindEvent(Connection c, PreparedStatement ps, int from, String owner, JobSpec spec)
            throws SQLException {
        List<String> keys = new ArrayList<>(spec.skipped().keySet());
        ps.setString(from, "client:" + owner);
        ps.setArray(from + 1, c.createArrayOf("text", keys.toArray()));
        ps.setArray(
                from + 2,
                c.createArrayOf("text", keys.stream().map(spec.skipped()::get).toArray()));
        return from + 3;
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
