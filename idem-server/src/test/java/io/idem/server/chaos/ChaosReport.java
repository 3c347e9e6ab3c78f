package io.idem.server.chaos;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** What one chaos run did and found, rendered as the summary block printed at its end. */
record ChaosReport(
        long seed,
        int jobsSubmitted,
        int workers,
        int kills,
        int leasesHeldByVictims,
        Duration runtime,
        Map<String, Long> jobsByState,
        Map<String, Long> attemptsByBillable,
        Map<String, Long> attemptsByStatus,
        Map<String, Long> ledgerByVendor,
        BigDecimal ledgerTotalUsd,
        long claims,
        long jobsParkedWorkerLost,
        long jobsRequeuedAfterLeaseExpiry,
        Map<String, Long> reconcileMoves,
        Map<String, Long> manualReviewByReason,
        long rejectionsFailedOverAfterCrash,
        Map<String, Map<String, Long>> finalStateByPrimaryMode,
        OpenAttemptSampler.Report sampler,
        List<Check> checks) {

    /** One promise and every violation found of it (empty: kept). */
    record Check(String promise, List<String> violations) {
        Check {
            violations = List.copyOf(violations);
        }

        boolean kept() {
            return violations.isEmpty();
        }
    }

    boolean allKept() {
        return checks.stream().allMatch(Check::kept);
    }

    String render() {
        StringBuilder out = new StringBuilder();
        out.append("==================== Idem crash chaos summary ====================\n");
        line(out, "seed", seed + "   (rerun: -Didem.chaos.seed=" + seed + ")");
        line(out, "jobs submitted", jobsSubmitted);
        line(out, "worker processes", workers);
        line(out, "SIGKILLs performed", kills + " (the victims held " + leasesHeldByVictims + " job leases)");
        line(out, "runtime", runtime.toMillis() / 1000.0 + " s");
        line(out, "jobs by state", jobsByState);
        line(out, "attempts by billable", attemptsByBillable);
        line(out, "attempts by status", attemptsByStatus);
        line(out, "ledger entries", ledgerByVendor + " total " + sum(ledgerByVendor) + ", $" + ledgerTotalUsd);
        line(out, "claims", claims);
        line(out, "jobs parked worker_lost", jobsParkedWorkerLost);
        line(out, "jobs requeued (lease expired)", jobsRequeuedAfterLeaseExpiry);
        line(out, "reconcile moves", reconcileMoves);
        line(out, "left in manual_review", manualReviewByReason);
        line(
                out,
                "crash-lost rejections failed over",
                rejectionsFailedOverAfterCrash
                        + " (user_error/policy on primary, but a crash hid the verdict from reconcile)");
        line(
                out,
                "open-attempt sampling",
                sampler.samples() + " samples, " + sampler.samplesWithDoubles() + " with a job holding >1 open"
                        + " attempt (worst " + sampler.worstDoubles() + "), up to " + sampler.mostInFlight()
                        + " calls in flight at once, " + sampler.failedSamples() + " failed samples");
        out.append("final state by primary simulate mode:\n");
        finalStateByPrimaryMode.forEach((mode, states) -> out.append(String.format("    %-12s %s%n", mode, states)));
        out.append("checks:\n");
        for (Check check : checks) {
            out.append(check.kept() ? "  [ok]   " : "  [FAIL] ").append(check.promise());
            if (!check.kept()) {
                out.append(" (").append(check.violations().size()).append(" violations)\n");
                check.violations().stream()
                        .limit(10)
                        .forEach(v -> out.append("           ").append(v).append('\n'));
            } else {
                out.append('\n');
            }
        }
        out.append("result: ")
                .append(allKept() ? "ALL PROMISES KEPT" : "PROMISES BROKEN")
                .append('\n');
        out.append("==================================================================\n");
        return out.toString();
    }

    private static long sum(Map<String, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    private static void line(StringBuilder out, String label, Object value) {
        String text = value instanceof Map<?, ?> map
                ? map.entrySet().stream()
                        .map(e -> e.getKey() + "=" + e.getValue())
                        .collect(Collectors.joining(", "))
                : String.valueOf(value);
        out.append(String.format("%-36s %s%n", label + ":", text.isEmpty() ? "(none)" : text));
    }
}
