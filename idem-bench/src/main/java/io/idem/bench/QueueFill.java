package io.idem.bench;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Queues the drain's jobs. The first {@link #THROUGH_API} go through {@code POST /v1/jobs} on an
 * API-only node, so the rows are exactly what intake writes; the rest are copies of the first one
 * made in one SQL statement (new id, later {@code created_at}, numbered prompt) together with their
 * {@code job.created} event, because pushing 20k jobs through the API on two shared cores would take
 * longer than the drains themselves.
 */
final class QueueFill {
    static final int THROUGH_API = 1_000;

    private static final String COPY_JOBS = """
            INSERT INTO jobs (id, owner, state, kind, lane, model, prompt, size, n, timeout_seconds,
                              candidates, pinned, simulate, metadata, created_at, updated_at)
            SELECT gen_random_uuid(), t.owner, 'queued', t.kind, t.lane, t.model, t.prompt || ' #' || g,
                   t.size, t.n, t.timeout_seconds, t.candidates, t.pinned, t.simulate, t.metadata,
                   m.last + g * interval '1 microsecond', m.last + g * interval '1 microsecond'
              FROM (SELECT * FROM jobs ORDER BY created_at, id LIMIT 1) t,
                   (SELECT max(created_at) AS last FROM jobs) m,
                   generate_series(1, ?) g
            """;

    private static final String COPY_EVENTS = """
            INSERT INTO job_events (job_id, type, to_state, actor, detail, at)
            SELECT j.id, e.type, e.to_state, e.actor, e.detail, j.created_at
              FROM jobs j,
                   (SELECT type, to_state, actor, detail FROM job_events WHERE type = 'job.created'
                     ORDER BY id LIMIT 1) e
             WHERE NOT EXISTS (SELECT 1 FROM job_events x WHERE x.job_id = j.id)
            """;

    private QueueFill() {}

    /**
     * With {@code history}, the API jobs also run to the end on a worker in the same node first, and
     * the filled database is analyzed: the queue then sits in a database that has done work before,
     * as a running install's does.
     */
    static void fill(String url, int jobs, int clients, boolean history, PrintStream out) {
        int viaApi = Math.min(jobs, THROUGH_API);
        try (BenchNode node = history ? BenchNode.all(url, 16) : BenchNode.api(url)) {
            String baseUrl = node.server().baseUrl();
            HttpLoad load = new HttpLoad(baseUrl, HttpLoad.clientKey(baseUrl, BenchNode.ADMIN_KEY));
            HttpLoad.Result result = load.run(clients, Duration.ofMinutes(2), viaApi, HttpLoad.Keys.NONE);
            if (result.ok() != viaApi) {
                throw new IllegalStateException(
                        "only " + result.ok() + " of " + viaApi + " jobs were accepted: " + result.statuses());
            }
            if (history) {
                awaitSettled(url);
            }
        }
        try (Connection c = DriverManager.getConnection(url)) {
            c.setAutoCommit(false);
            try (PreparedStatement copy = c.prepareStatement(COPY_JOBS);
                    PreparedStatement events = c.prepareStatement(COPY_EVENTS)) {
                copy.setInt(1, history ? jobs : jobs - viaApi);
                copy.executeUpdate();
                events.executeUpdate();
            }
            c.commit();
        } catch (SQLException e) {
            throw new IllegalStateException("could not copy the queued jobs", e);
        }
        if (history) {
            BenchCluster.analyze(url);
            out.printf(
                    "queued %d jobs (SQL copies of one that came through POST /v1/jobs) behind %d jobs already run"
                            + " through the API and a worker; then ANALYZE%n",
                    jobs, viaApi);
        } else {
            out.printf(
                    "queued %d jobs: %d through POST /v1/jobs, %d copied from the first in SQL; no ANALYZE%n",
                    jobs, viaApi, jobs - viaApi);
        }
    }

    private static void awaitSettled(String url) {
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement ps =
                        c.prepareStatement("SELECT count(*) FROM jobs WHERE state IN ('queued', 'running')")) {
            for (int i = 0; i < 600; i++) {
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getLong(1) == 0) {
                        return;
                    }
                }
                BenchCluster.pause(100);
            }
            throw new IllegalStateException("the history jobs did not finish within a minute");
        } catch (SQLException e) {
            throw new IllegalStateException("could not wait for the history jobs", e);
        }
    }
}
