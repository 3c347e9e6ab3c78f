package io.idem.postgres;

import io.idem.core.domain.Attempt;
import io.idem.core.domain.AttemptStatus;
import io.idem.core.domain.Billable;
import io.idem.core.domain.ImageParams;
import io.idem.core.domain.Job;
import io.idem.core.domain.JobKind;
import io.idem.core.domain.JobResult;
import io.idem.core.domain.JobSpec;
import io.idem.core.domain.JobState;
import io.idem.core.domain.VideoParams;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Maps job and attempt rows; the column lists every reader selects live here too. */
final class JobRows {
    /** Separates key and value of a simulate pair (a control character no name or mode contains). */
    static final String PAIR = "\u001f";

    static final String JOB_COLUMNS = """
            j.id, j.owner, j.state, j.kind, j.lane, j.model, j.prompt, j.size, j.n, j.timeout_seconds,
            j.candidates, j.pinned,
            ARRAY(SELECT k || chr(31) || v FROM jsonb_each_text(j.simulate) AS s(k, v)) AS simulate_pairs,
            j.metadata::text AS metadata_json, j.round, j.result_provider, j.result_attempt_id,
            j.error_code, j.error_message, j.error_class, j.review_reason, j.review_since,
            j.created_at, j.updated_at, j.deadline_seconds,
            NULLIF(j.not_before, '-infinity'::timestamptz) AS not_before,
            COALESCE(j.deadline_at, j.created_at + make_interval(secs => j.deadline_seconds)) AS deadline_at,
            j.max_cost_usd, j.callback_url, j.video_seconds, j.video_resolution, j.video_aspect_ratio,
            j.video_fps, j.video_seed, j.video_negative_prompt, j.video_start_image, j.video_end_image, j.video_audio,
            j.image_options->>'quality' AS image_quality, j.image_options->>'style' AS image_style,
            j.image_options->>'background' AS image_background, j.image_options->>'output_format' AS image_format,
            (j.image_options->>'output_compression')::integer AS image_compression,
            j.image_options->>'moderation' AS image_moderation, j.image_options->>'provider_options' AS image_provider,
            ARRAY(SELECT (x->>'mask') || chr(31) || (x->>'mime_type') || chr(31) || (x->>'base64')
                  FROM jsonb_array_elements(COALESCE(j.image_options->'inputs', '[]'::jsonb)) WITH ORDINALITY AS i(x, o)
                  ORDER BY o) AS image_inputs
            """;

    static final String ATTEMPT_COLUMNS = """
            a.id, a.job_id, a.provider, a.model, a.round, a.status, a.error_class, a.error_code,
            a.http_status, a.provider_request_id, a.latency_ms, a.billable, a.cost_usd,
            a.started_at, a.finished_at
            """;

    private JobRows() {}

    static Job job(ResultSet rs, List<Attempt> attempts, List<JobResult.AssetRef> assets) throws SQLException {
        JobSpec spec = new JobSpec(
                new JobSpec.Generation(
                        rs.getString("prompt"),
                        rs.getString("model"),
                        JobKind.fromWire(rs.getString("kind")),
                        rs.getString("size"),
                        rs.getInt("n"),
                        video(rs),
                        image(rs)),
                new JobSpec.Route(rs.getString("lane"), strings(rs.getArray("candidates")), rs.getBoolean("pinned")),
                rs.getInt("timeout_seconds"),
                rs.getInt("deadline_seconds"),
                pairs(rs.getArray("simulate_pairs")),
                rs.getString("metadata_json"),
                Optional.ofNullable(rs.getBigDecimal("max_cost_usd")),
                Optional.ofNullable(rs.getString("callback_url")));
        UUID resultAttempt = rs.getObject("result_attempt_id", UUID.class);
        Optional<JobResult> result = resultAttempt == null
                ? Optional.empty()
                : Optional.of(new JobResult(rs.getString("result_provider"), resultAttempt, assets));
        String errorCode = rs.getString("error_code");
        Optional<Job.JobError> error = errorCode == null
                ? Optional.empty()
                : Optional.of(new Job.JobError(errorCode, rs.getString("error_message"), rs.getString("error_class")));
        String reviewReason = rs.getString("review_reason");
        Optional<Job.Review> review = reviewReason == null
                ? Optional.empty()
                : Optional.of(new Job.Review(reviewReason, instant(rs, "review_since")));
        return new Job(
                rs.getObject("id", UUID.class),
                rs.getString("owner"),
                JobState.fromWire(rs.getString("state")),
                spec,
                rs.getInt("round"),
                result,
                error,
                review,
                new Job.Times(
                        instant(rs, "created_at"),
                        instant(rs, "updated_at"),
                        Optional.ofNullable(instant(rs, "not_before")),
                        Optional.of(instant(rs, "deadline_at"))),
                attempts);
    }

    /** The same job with its attempts and its result's assets filled in. */
    static Job withDetails(Job job, List<Attempt> attempts, List<JobResult.AssetRef> assets) {
        Optional<JobResult> result = job.result().map(r -> new JobResult(r.provider(), r.attemptId(), assets));
        return new Job(
                job.id(),
                job.owner(),
                job.state(),
                job.spec(),
                job.round(),
                result,
                job.error(),
                job.review(),
                job.times(),
                attempts);
    }

    static Attempt attempt(ResultSet rs) throws SQLException {
        long latency = rs.getLong("latency_ms");
        Optional<Long> latencyMs = rs.wasNull() ? Optional.empty() : Optional.of(latency);
        return new Attempt(
                rs.getObject("id", UUID.class),
                rs.getObject("job_id", UUID.class),
                rs.getString("provider"),
                rs.getString("model"),
                rs.getInt("round"),
                AttemptStatus.fromWire(rs.getString("status")),
                new Attempt.Answer(
                        rs.getInt("http_status"),
                        Optional.ofNullable(rs.getString("error_class")),
                        Optional.ofNullable(rs.getString("error_code")),
                        Optional.ofNullable(rs.getString("provider_request_id"))),
                new Attempt.Bill(Billable.fromWire(rs.getString("billable")), rs.getBigDecimal("cost_usd")),
                new Attempt.Timing(
                        instant(rs, "started_at"), Optional.ofNullable(instant(rs, "finished_at")), latencyMs));
    }

    /** A video job's parameters from the row; empty on an image job. */
    static Optional<VideoParams> video(ResultSet rs) throws SQLException {
        int seconds = rs.getInt("video_seconds");
        if (rs.wasNull()) {
            return Optional.empty();
        }
        int fps = rs.getInt("video_fps");
        Optional<Integer> fpsOf = rs.wasNull() ? Optional.empty() : Optional.of(fps);
        long seed = rs.getLong("video_seed");
        Optional<Long> seedOf = rs.wasNull() ? Optional.empty() : Optional.of(seed);
        return Optional.of(new VideoParams(
                seconds,
                rs.getString("video_resolution"),
                rs.getString("video_aspect_ratio"),
                fpsOf,
                seedOf,
                Optional.ofNullable(rs.getString("video_negative_prompt")),
                Optional.ofNullable(rs.getString("video_start_image")),
                Optional.ofNullable(rs.getString("video_end_image")),
                rs.getBoolean("video_audio")));
    }

    /** An image job's own parameters from the row ({@link ImageParams#NONE} when it named none). */
    static ImageParams image(ResultSet rs) throws SQLException {
        int compression = rs.getInt("image_compression");
        Optional<Integer> compressionOf = rs.wasNull() ? Optional.empty() : Optional.of(compression);
        return new ImageParams(
                Optional.ofNullable(rs.getString("image_quality")),
                Optional.ofNullable(rs.getString("image_style")),
                Optional.ofNullable(rs.getString("image_background")),
                Optional.ofNullable(rs.getString("image_format")),
                compressionOf,
                Optional.ofNullable(rs.getString("image_moderation")),
                Optional.ofNullable(rs.getString("image_provider")),
                inputs(strings(rs.getArray("image_inputs"))));
    }

    private static List<io.idem.core.domain.InputImage> inputs(List<String> rows) {
        return rows.stream()
                .map(row -> row.split(PAIR, 3))
                .map(f -> new io.idem.core.domain.InputImage(Boolean.parseBoolean(f[0]), f[1], f[2]))
                .toList();
    }

    /** Binds the ten image parameters of an accepted job from {@code from} (PgJobIntake); the next index. */
    static int bindImage(java.sql.PreparedStatement ps, int from, ImageParams image) throws SQLException {
        int i = from;
        ps.setString(i++, image.quality().orElse(null));
        ps.setString(i++, image.style().orElse(null));
        ps.setString(i++, image.background().orElse(null));
        ps.setString(i++, image.outputFormat().orElse(null));
        ps.setObject(i++, image.outputCompression().orElse(null), java.sql.Types.INTEGER);
        ps.setString(i++, image.moderation().orElse(null));
        ps.setString(i++, image.providerOptions().orElse(null));
        var inputs = image.inputs();
        var c = ps.getConnection();
        ps.setArray(
                i++,
                c.createArrayOf("boolean", inputs.stream().map(in -> in.mask()).toArray()));
        ps.setArray(
                i++,
                c.createArrayOf("text", inputs.stream().map(in -> in.mimeType()).toArray()));
        ps.setArray(
                i++,
                c.createArrayOf("text", inputs.stream().map(in -> in.base64()).toArray()));
        return i;
    }

    /** Binds the nine video columns from {@code from} (all null for an image job); the next index. */
    static int bindVideo(java.sql.PreparedStatement ps, int from, Optional<VideoParams> video) throws SQLException {
        int i = from;
        VideoParams v = video.orElse(null);
        ps.setObject(i++, v == null ? null : v.durationSeconds(), java.sql.Types.INTEGER);
        ps.setString(i++, v == null ? null : v.resolution());
        ps.setString(i++, v == null ? null : v.aspectRatio());
        ps.setObject(i++, v == null ? null : v.fps().orElse(null), java.sql.Types.INTEGER);
        ps.setObject(i++, v == null ? null : v.seed().orElse(null), java.sql.Types.BIGINT);
        ps.setString(i++, v == null ? null : v.negativePrompt().orElse(null));
        ps.setString(i++, v == null ? null : v.startImage().orElse(null));
        ps.setString(i++, v == null ? null : v.endImage().orElse(null));
        ps.setObject(i++, v == null ? null : v.audio(), java.sql.Types.BOOLEAN);
        return i;
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp ts = rs.getTimestamp(column);
        return ts == null ? null : ts.toInstant();
    }

    static Timestamp timestamp(Instant instant) {
        return Timestamp.from(instant);
    }

    static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }

    private static Map<String, String> pairs(Array array) throws SQLException {
        Map<String, String> map = new LinkedHashMap<>();
        for (String pair : strings(array)) {
            int cut = pair.indexOf(PAIR);
            map.put(pair.substring(0, cut), pair.substring(cut + 1));
        }
        return map;
    }
}
