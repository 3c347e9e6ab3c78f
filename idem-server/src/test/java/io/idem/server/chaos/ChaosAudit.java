package io.idem.server.chaos;

import io.idem.postgres.Database;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Reads what the chaos left behind (jobs, attempts, events, the vendors' invoices) and checks the
 * crash promises against it. Pure reading: it changes nothing.
 */
final class ChaosAudit {
    record AttemptRow(
            String id, String jobId, String provider, int round, String status, String billable, String errorCode) {}

    record JobRow(
            String id,
            String state,
            String reviewReason,
            String primaryMode,
            String resultAttemptId,
            boolean resolved) {}

    private final Database db;

    ChaosAudit(Database db) {
        this.db = db;
    }

    List<JobRow> jobs() {
        return rows(
                """
                SELECT j.id::text, j.state, j.review_reason, j.simulate ->> 'primary', j.result_attempt_id::text,
                       EXISTS (SELECT 1 FROM job_events e WHERE e.job_id = j.id AND e.type = 'job.resolved')
                  FROM jobs j
                """,
                rs -> new JobRow(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getBoolean(6)));
    }

    List<AttemptRow> attempts() {
        return rows(
                "SELECT id::text, job_id::text, provider, round, status, billable, error_code FROM provider_attempts",
                rs -> new AttemptRow(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getInt(4),
                        rs.getString(5),
                        rs.getString(6),
                        rs.getString(7)));
    }

    /** Keys of (job, provider, round) that hold more than one attempt. */
    List<String> duplicateAttempts() {
        return rows("""
                SELECT job_id::text || '/' || provider || '/' || round FROM provider_attempts
                 GROUP BY job_id, provider, round HAVING count(*) > 1
                """, rs -> rs.getString(1));
    }

    /** Jobs that hold more than one open (sending, submitted, unconfirmed) attempt right now. */
    List<String> jobsWithTwoOpenAttempts() {
        return rows("""
                SELECT job_id::text FROM provider_attempts
                 WHERE status IN ('sending', 'submitted', 'unconfirmed')
                 GROUP BY job_id HAVING count(*) > 1
                """, rs -> rs.getString(1));
    }

    /** Distinct jobs ever parked because their worker's lease expired mid-call. */
    long jobsParkedWorkerLost() {
        return single("""
                SELECT count(DISTINCT job_id) FROM job_events
                 WHERE type = 'job.manual_review' AND detail ->> 'reason' = 'worker_lost'
                """);
    }

    /** Distinct jobs a dead worker had claimed but not yet called for, put back in the queue. */
    long jobsRequeuedAfterLeaseExpiry() {
        return single("""
                SELECT count(DISTINCT job_id) FROM job_events
                 WHERE type = 'job.requeued' AND detail ->> 'reason' = 'lease_expired'
                """);
    }

    /** Reconcile moves by what the vendor said (delivered, late_result, not_delivered). */
    Map<String, Long> reconcileMoves() {
        Map<String, Long> out = new TreeMap<>();
        rows("""
                SELECT detail ->> 'outcome', count(*) FROM job_events
                 WHERE type = 'job.reconciled' GROUP BY 1
                """, rs -> Map.entry(rs.getString(1), rs.getLong(2))).forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    long claims() {
        return single("SELECT count(*) FROM job_events WHERE type = 'job.claimed'");
    }

    /** Jobs still queued or running. */
    long unsettledJobs() {
        return single("SELECT count(*) FROM jobs WHERE state IN ('queued', 'running')");
    }

    /**
     * Parked jobs whose open attempt is still inside the window in which the vendor's "never heard
     * of it" is not yet trusted (the call's deadline plus 5 s, plus a second of slack): reconcile can
     * still move them.
     */
    long parkedInsideTrustWindow() {
        return single("""
                SELECT count(*) FROM jobs j JOIN provider_attempts a ON a.job_id = j.id
                 WHERE j.state = 'manual_review' AND a.status IN ('sending', 'submitted', 'unconfirmed')
                   AND a.started_at > now() - make_interval(secs => j.timeout_seconds + 6)
                """);
    }

    /** A cheap fingerprint of every job's and attempt's state, to tell whether anything still moves. */
    String fingerprint() {
        return rows("""
                SELECT 'j:' || state || '=' || count(*) FROM jobs GROUP BY state
                UNION ALL
                SELECT 'a:' || status || '/' || billable || '=' || count(*) FROM provider_attempts
                 GROUP BY status, billable
                ORDER BY 1
                """, rs -> rs.getString(1)).stream().collect(Collectors.joining(" "));
    }

    static <T> Map<String, Long> countBy(List<T> rows, Function<T, String> key) {
        Map<String, Long> out = new TreeMap<>();
        rows.forEach(r -> out.merge(key.apply(r), 1L, Long::sum));
        return out;
    }

    /** Every check the chaos proof makes, in the order the summary prints them. */
    List<ChaosReport.Check> checks(
            List<JobRow> jobs,
            List<AttemptRow> attempts,
            List<Invoices.Line> invoices,
            OpenAttemptSampler.Report sampler) {
        List<ChaosReport.Check> checks = new ArrayList<>();
        checks.add(new ChaosReport.Check(
                "every job is terminal or in manual_review",
                jobs.stream()
                        .filter(j -> j.state().equals("queued") || j.state().equals("running"))
                        .map(j -> "job " + j.id() + " is " + j.state())
                        .toList()));
        checks.add(new ChaosReport.Check("no (job, provider, round) has two attempts", duplicateAttempts()));
        checks.add(new ChaosReport.Check("no job holds two open attempts at the end", jobsWithTwoOpenAttempts()));
        checks.add(new ChaosReport.Check(
                "no job held two open attempts in any sample during the run", samplingViolations(sampler)));
        checks.addAll(moneyChecks(jobs, attempts, invoices));
        checks.add(resultsCheck(jobs, attempts));
        return checks;
    }

    private static List<String> samplingViolations(OpenAttemptSampler.Report sampler) {
        List<String> out = new ArrayList<>();
        if (sampler.samples() < 10) {
            out.add("only " + sampler.samples() + " samples were taken");
        }
        if (sampler.samplesWithDoubles() > 0) {
            out.add(sampler.samplesWithDoubles() + " samples saw up to " + sampler.worstDoubles()
                    + " jobs with two open attempts");
        }
        return out;
    }

    /** Every invariant about money: the invoices equal the audit, and nothing billed is dropped. */
    private static List<ChaosReport.Check> moneyChecks(
            List<JobRow> jobs, List<AttemptRow> attempts, List<Invoices.Line> invoices) {
        Map<String, AttemptRow> byId = new HashMap<>();
        attempts.forEach(a -> byId.put(a.id(), a));
        Map<String, Invoices.Line> billed = new HashMap<>();
        List<String> billedTwice = new ArrayList<>();
        List<String> unknownReference = new ArrayList<>();
        for (Invoices.Line line : invoices) {
            if (billed.put(line.reference(), line) != null) {
                billedTwice.add("reference " + line.reference() + " billed twice");
            }
            AttemptRow attempt = byId.get(line.reference());
            if (attempt == null) {
                unknownReference.add(
                        line.vendor() + " billed " + line.id() + " for unknown reference " + line.reference());
            } else if (!attempt.provider().equals(line.vendor())
                    || attempt.billable().equals("no")) {
                unknownReference.add(line.vendor() + " billed " + line.id() + " but attempt " + attempt.id() + " is "
                        + attempt.provider() + "/" + attempt.status() + "/billable=" + attempt.billable());
            }
        }
        List<String> yesNotBilled = new ArrayList<>();
        List<String> noButBilled = new ArrayList<>();
        for (AttemptRow a : attempts) {
            if (a.billable().equals("yes") && !billed.containsKey(a.id())) {
                yesNotBilled.add("attempt " + a.id() + " (" + a.provider() + ", job " + a.jobId()
                        + ") is billable=yes but on no invoice");
            }
            if (a.billable().equals("no") && billed.containsKey(a.id())) {
                noButBilled.add("attempt " + a.id() + " (" + a.provider() + ", job " + a.jobId()
                        + ") is billable=no but was billed");
            }
        }
        Map<String, Integer> billsPerJob = new HashMap<>();
        billed.keySet().stream()
                .map(byId::get)
                .filter(a -> a != null)
                .forEach(a -> billsPerJob.merge(a.jobId(), 1, Integer::sum));
        billsPerJob.forEach((job, n) -> {
            if (n > 1) {
                billedTwice.add("job " + job + " billed " + n + " times");
            }
        });
        Set<String> billedJobs = new HashSet<>(billsPerJob.keySet());
        List<String> billedButFailed = jobs.stream()
                .filter(j -> j.state().equals("failed") && billedJobs.contains(j.id()) && !j.resolved())
                .map(j -> "job " + j.id() + " (primary " + j.primaryMode() + ") was billed and is failed")
                .toList();
        return List.of(
                new ChaosReport.Check(
                        "every billed generation is an attempt of that provider marked yes or unknown",
                        unknownReference),
                new ChaosReport.Check("every attempt marked yes is on its vendor's invoice", yesNotBilled),
                new ChaosReport.Check("no attempt marked no is on an invoice", noButBilled),
                new ChaosReport.Check("no generation and no job billed twice (no operator retries here)", billedTwice),
                new ChaosReport.Check(
                        "no billed job left failed without an operator decision (after reconcile)", billedButFailed));
    }

    /** Every succeeded job points at a succeeded attempt of its own marked billable yes. */
    private static ChaosReport.Check resultsCheck(List<JobRow> jobs, List<AttemptRow> attempts) {
        Map<String, AttemptRow> byId = new HashMap<>();
        attempts.forEach(a -> byId.put(a.id(), a));
        List<String> bad = new ArrayList<>();
        for (JobRow j : jobs) {
            if (!j.state().equals("succeeded")) {
                continue;
            }
            AttemptRow a = j.resultAttemptId() == null ? null : byId.get(j.resultAttemptId());
            if (a == null
                    || !a.jobId().equals(j.id())
                    || !a.status().equals("succeeded")
                    || !a.billable().equals("yes")) {
                bad.add("job " + j.id() + " succeeded with result attempt " + a);
            }
        }
        return new ChaosReport.Check("every succeeded job's result is its own succeeded, billable=yes attempt", bad);
    }

    /**
     * Jobs whose primary was told to reject (user_error, policy) but whose primary attempt reconcile
     * closed as never delivered, and which then went on to the backup. A crash does that: the worker
     * died before it recorded the rejection, the fake vendor keeps no record of a rejected request,
     * so reconcile hears "never received" and continues (DESIGN §4).
     */
    static long rejectionsFailedOverAfterCrash(List<JobRow> jobs, List<AttemptRow> attempts) {
        Set<String> closedUndelivered = attempts.stream()
                .filter(a -> a.provider().equals("primary") && "not_delivered".equals(a.errorCode()))
                .map(AttemptRow::jobId)
                .collect(Collectors.toSet());
        Set<String> reachedBackup = attempts.stream()
                .filter(a -> a.provider().equals("backup"))
                .map(AttemptRow::jobId)
                .collect(Collectors.toSet());
        return jobs.stream()
                .filter(j ->
                        j.primaryMode().equals("user_error") || j.primaryMode().equals("policy"))
                .filter(j -> closedUndelivered.contains(j.id()) && reachedBackup.contains(j.id()))
                .count();
    }

    @FunctionalInterface
    private interface RowReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private <T> List<T> rows(String sql, RowReader<T> reader) {
        return db.withConnection(c -> {
            List<T> out = new ArrayList<>();
            try (var rs = c.createStatement().executeQuery(sql)) {
                while (rs.next()) {
                    out.add(reader.read(rs));
                }
            }
            return out;
        });
    }

    private long single(String sql) {
        return rows(sql, rs -> rs.getLong(1)).getFirst();
    }
}
