package io.idem.postgres;

import io.idem.core.domain.Attempt;
import io.idem.core.domain.Job;
import io.idem.core.domain.JobEvent;
import io.idem.core.domain.JobResult;
import io.idem.core.domain.JobState;
import io.idem.core.spi.JobReads;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Reads jobs, their attempts, events and assets: each read is one statement, or a job statement
 * and two more for all its jobs' attempts and assets. Thread-safe.
 */
public final class PgJobReads implements JobReads {
    private final Database db;

    public PgJobReads(Database db) {
        this.db = db;
    }

    @Override
    public Optional<Job> find(UUID id, String owner) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + JobRows.JOB_COLUMNS
                    + " FROM jobs j WHERE j.id = ? AND (?::text IS NULL OR j.owner = ?)")) {
                ps.setObject(1, id);
                ps.setString(2, owner);
                ps.setString(3, owner);
                List<Job> jobs = readJobs(c, ps);
                return jobs.stream().findFirst();
            }
        });
    }

    @Override
    public Page list(String owner, JobState state, io.idem.core.domain.JobKind kind, Cursor after, int limit) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + JobRows.JOB_COLUMNS + """
                     FROM jobs j
                    WHERE (?::text IS NULL OR j.owner = ?)
                      AND (?::text IS NULL OR j.state = ?)
                      AND (?::text IS NULL OR j.kind = ?)
                      AND (?::timestamptz IS NULL OR (j.created_at, j.id) < (?::timestamptz, ?::uuid))
                    ORDER BY j.created_at DESC, j.id DESC
                    LIMIT ?
                    """)) {
                String stateName = state == null ? null : state.wire();
                var createdAt = after == null ? null : JobRows.timestamp(after.createdAt());
                ps.setString(1, owner);
                ps.setString(2, owner);
                ps.setString(3, stateName);
                ps.setString(4, stateName);
                String kindName = kind == null ? null : kind.wire();
                ps.setString(5, kindName);
                ps.setString(6, kindName);
                ps.setTimestamp(7, createdAt);
                ps.setTimestamp(8, createdAt);
                ps.setObject(9, after == null ? null : after.id());
                ps.setInt(10, limit + 1);
                List<Job> jobs = readJobs(c, ps);
                if (jobs.size() <= limit) {
                    return new Page(jobs, Optional.empty());
                }
                List<Job> page = jobs.subList(0, limit);
                Job last = page.getLast();
                return new Page(List.copyOf(page), Optional.of(new Cursor(last.createdAt(), last.id())));
            }
        });
    }

    @Override
    public List<JobEvent> events(UUID jobId) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT id, job_id, type, from_state, to_state, actor, detail::text AS detail, at
                      FROM job_events WHERE job_id = ? ORDER BY id
                    """)) {
                ps.setObject(1, jobId);
                List<JobEvent> events = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String from = rs.getString("from_state");
                        String to = rs.getString("to_state");
                        events.add(new JobEvent(
                                rs.getLong("id"),
                                rs.getObject("job_id", UUID.class),
                                io.idem.core.domain.JobEventType.fromWire(rs.getString("type")),
                                Optional.ofNullable(from).map(JobState::fromWire),
                                Optional.ofNullable(to).map(JobState::fromWire),
                                rs.getString("actor"),
                                rs.getString("detail"),
                                JobRows.instant(rs, "at")));
                    }
                }
                return events;
            }
        });
    }

    @Override
    public Map<String, Spend> spendSince(Instant since) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT provider, count(*) AS calls,
                           COALESCE(sum(cost_usd) FILTER (WHERE billable = 'yes'), 0) AS billed,
                           count(*) FILTER (WHERE billable = 'unknown') AS unknown_calls
                      FROM (SELECT provider, cost_usd, billable FROM provider_attempts WHERE started_at >= ?
                            UNION ALL
                            SELECT provider, cost_usd, billable FROM chat_attempts
                             WHERE started_at >= ? AND outcome <> 'skipped') calls
                     GROUP BY provider
                    """)) {
                ps.setTimestamp(1, JobRows.timestamp(since));
                ps.setTimestamp(2, JobRows.timestamp(since));
                Map<String, Spend> out = new HashMap<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String provider = rs.getString("provider");
                        out.put(
                                provider,
                                new Spend(
                                        provider,
                                        rs.getLong("calls"),
                                        rs.getBigDecimal("billed"),
                                        rs.getLong("unknown_calls")));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public Map<String, Health> healthSince(Instant since) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT provider, count(*) AS calls,
                           count(*) FILTER (WHERE error_class IN ('unavailable', 'unconfirmed')) AS errors,
                           percentile_disc(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95
                      FROM (SELECT provider, error_class, latency_ms FROM provider_attempts WHERE started_at >= ?
                            UNION ALL
                            -- a stream's latency is its time to the first token
                            SELECT provider, outcome, CASE WHEN stream THEN first_token_ms ELSE latency_ms END
                              FROM chat_attempts WHERE started_at >= ? AND outcome <> 'skipped') calls
                     GROUP BY provider
                    """)) {
                ps.setTimestamp(1, JobRows.timestamp(since));
                ps.setTimestamp(2, JobRows.timestamp(since));
                Map<String, Health> out = new HashMap<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        long p95 = rs.getLong("p95");
                        Optional<Long> latency = rs.wasNull() ? Optional.empty() : Optional.of(p95);
                        out.put(
                                rs.getString("provider"),
                                new Health(
                                        rs.getString("provider"), rs.getLong("calls"), rs.getLong("errors"), latency));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public Optional<AssetFile> asset(UUID id) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT s.id, s.job_id, j.owner, s.mime_type, s.bytes, s.location,
                           s.attempt_id IS NOT DISTINCT FROM j.result_attempt_id AS delivered
                      FROM assets s JOIN jobs j ON j.id = s.job_id WHERE s.id = ?
                    """)) {
                ps.setObject(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new AssetFile(
                            rs.getObject("id", UUID.class),
                            rs.getObject("job_id", UUID.class),
                            rs.getString("owner"),
                            rs.getString("mime_type"),
                            rs.getLong("bytes"),
                            rs.getString("location"),
                            rs.getBoolean("delivered")));
                }
            }
        });
    }

    @Override
    public Optional<byte[]> assetContent(UUID id) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT content FROM assets WHERE id = ?")) {
                ps.setObject(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.ofNullable(rs.getBytes(1)) : Optional.empty();
                }
            }
        });
    }

    @Override
    public List<Job> reviewQueue(int limit) {
        return db.withConnection(c -> {
            List<UUID> ids = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT id FROM jobs WHERE state = 'manual_review' ORDER BY review_since, id LIMIT ?")) {
                ps.setInt(1, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getObject(1, UUID.class));
                    }
                }
            }
            return byIds(c, ids);
        });
    }

    /** The jobs with these ids, with attempts and result assets, in id order of {@code ids}. */
    static List<Job> byIds(Connection c, List<UUID> ids) throws SQLException {
        if (ids.isEmpty()) {
            return List.of();
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT " + JobRows.JOB_COLUMNS
                + " FROM jobs j WHERE j.id = ANY (?) ORDER BY j.review_since NULLS LAST, j.created_at, j.id")) {
            ps.setArray(1, c.createArrayOf("uuid", ids.toArray()));
            return readJobs(c, ps);
        }
    }

    /** Reads job rows, then their attempts and result assets in two more statements. */
    private static List<Job> readJobs(Connection c, PreparedStatement ps) throws SQLException {
        List<Job> rows = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(JobRows.job(rs, List.of(), List.of()));
            }
        }
        if (rows.isEmpty()) {
            return List.of();
        }
        UUID[] ids = rows.stream().map(Job::id).toArray(UUID[]::new);
        Map<UUID, List<Attempt>> attempts = attemptsOf(c, ids);
        Map<UUID, List<JobResult.AssetRef>> assets = assetsOf(c, ids);
        List<Job> jobs = new ArrayList<>(rows.size());
        for (Job row : rows) {
            jobs.add(JobRows.withDetails(
                    row, attempts.getOrDefault(row.id(), List.of()), assets.getOrDefault(row.id(), List.of())));
        }
        return jobs;
    }

    private static Map<UUID, List<Attempt>> attemptsOf(Connection c, UUID[] jobIds) throws SQLException {
        Map<UUID, List<Attempt>> byJob = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT " + JobRows.ATTEMPT_COLUMNS
                + " FROM provider_attempts a WHERE a.job_id = ANY (?) ORDER BY a.started_at, a.id")) {
            ps.setArray(1, c.createArrayOf("uuid", jobIds));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Attempt attempt = JobRows.attempt(rs);
                    byJob.computeIfAbsent(attempt.jobId(), k -> new ArrayList<>())
                            .add(attempt);
                }
            }
        }
        return byJob;
    }

    /** Assets of each job's result attempt. */
    private static Map<UUID, List<JobResult.AssetRef>> assetsOf(Connection c, UUID[] jobIds) throws SQLException {
        Map<UUID, List<JobResult.AssetRef>> byJob = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT s.job_id, s.id, s.mime_type, s.bytes
                  FROM assets s JOIN jobs j ON j.id = s.job_id AND j.result_attempt_id = s.attempt_id
                 WHERE s.job_id = ANY (?) ORDER BY s.location
                """)) {
            ps.setArray(1, c.createArrayOf("uuid", jobIds));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    byJob.computeIfAbsent(rs.getObject("job_id", UUID.class), k -> new ArrayList<>())
                            .add(new JobResult.AssetRef(
                                    rs.getObject("id", UUID.class), rs.getString("mime_type"), rs.getLong("bytes")));
                }
            }
        }
        return byJob;
    }
}
