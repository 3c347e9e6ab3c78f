package io.idem.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * {@code POST /v1/jobs} at N concurrent clients against an API-only node (no worker, so nothing
 * competes for the database but intake), once without and once with a fresh {@code Idempotency-Key}
 * per request. Both variants warm up first; each measurement starts after a pause in which the
 * database's counters settle.
 */
final class AcceptScenario {
    static final double TARGET_JOBS_PER_SECOND = 3_700;
    static final double TARGET_P99_MS = 10;
    private static final Duration REWARM = Duration.ofSeconds(2);

    private final BenchCluster cluster;
    private final BenchOptions options;
    private final LoadBench.Baseline baseline;
    private final PrintStream out;

    private record Measured(
            HttpLoad.Keys keys,
            HttpLoad.Result result,
            BenchCluster.Counters before,
            BenchCluster.Counters after,
            RelationReads reads,
            Map<String, Double> cores) {}

    AcceptScenario(BenchCluster cluster, BenchOptions options, LoadBench.Baseline baseline, PrintStream out) {
        this.cluster = cluster;
        this.options = options;
        this.baseline = baseline;
        this.out = out;
    }

    void run() {
        String url = cluster.fresh();
        List<Measured> runs = new ArrayList<>();
        try (BenchNode node = BenchNode.api(url)) {
            String baseUrl = node.server().baseUrl();
            HttpLoad load = new HttpLoad(baseUrl, HttpLoad.clientKey(baseUrl, BenchNode.ADMIN_KEY));
            CpuMeter cpu = new CpuMeter(cluster.postmasterPid());
            StatementCosts statements = new StatementCosts(cluster, options.statements());
            // The JIT needs many thousands of requests on every path before the figures settle, so
            // both variants are warmed before either is measured, and each again just before.
            for (HttpLoad.Keys keys : HttpLoad.Keys.values()) {
                out.printf(
                        "accept, %s: warming up %d s%n",
                        label(keys), options.warmup().toSeconds());
                load.run(options.clients(), options.warmup(), Long.MAX_VALUE, keys);
            }
            if (options.analyze()) {
                out.println("ANALYZE, as autovacuum would once the tables grew (--analyze off skips it)");
                BenchCluster.analyze(url);
            }
            for (HttpLoad.Keys keys : HttpLoad.Keys.values()) {
                out.printf(
                        "accept, %s: measuring %d s%n",
                        label(keys), options.measure().toSeconds());
                load.run(options.clients(), REWARM, Long.MAX_VALUE, keys);
                BenchCluster.Counters before = cluster.settledCounters(url);
                RelationReads readsBefore = BenchCluster.reads(url);
                statements.reset();
                CpuMeter.Sample from = cpu.sample();
                HttpLoad.Result result = load.run(options.clients(), options.measure(), Long.MAX_VALUE, keys);
                CpuMeter.Sample to = cpu.sample();
                statements.print(out, "accept, " + label(keys), url, result.ok());
                BenchCluster.Counters after = cluster.settledCounters(url);
                RelationReads reads = BenchCluster.reads(url).minus(readsBefore);
                runs.add(new Measured(keys, result, before, after, reads, CpuMeter.cores(from, to)));
                if (result.error() != null) {
                    out.println("  first transport error: " + result.error());
                }
            }
        }
        out.println();
        report(runs);
    }

    private void report(List<Measured> runs) {
        out.printf(
                "## Accept: POST /v1/jobs, %d concurrent clients, %d s measured after %d s warm-up%n%n",
                options.clients(),
                options.measure().toSeconds(),
                options.warmup().toSeconds());
        Table latency = new Table(
                "variant", "accepted", "jobs/s", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", "statuses");
        Table targets = new Table(
                "variant",
                "jobs/s ÷ target 3.7k",
                "p99 ≤ 10 ms?",
                "jobs/s ÷ raw INSERT commits/s @" + baseline.clients(),
                "jobs/s ÷ raw INSERT commits/s @1");
        Table commits = new Table(
                "variant", "transactions/job (pg_stat_database)", "write transactions/job (xids)", "rollbacks");
        Table cpu = cpuTable();
        Table reads = RelationReads.table();
        for (Measured m : runs) {
            m.reads().addRows(reads, label(m.keys()), m.result().ok(), 5);
            addRows(m, latency, targets, commits);
            addCpuRow(cpu, label(m.keys()), m.cores(), m.result().perSecond());
        }
        latency.print(out);
        out.println("### Against the targets and the peer measured above");
        out.println();
        targets.print(out);
        out.println("### Database transactions per accepted job");
        out.println();
        commits.print(out);
        out.println("### What intake read, per accepted job (pg_stat_user_tables / pg_stat_user_indexes, top 5)");
        out.println();
        reads.print(out);
        out.println("### CPU during the measurement, in cores (of "
                + Runtime.getRuntime().availableProcessors() + ")");
        out.println();
        cpu.print(out);
    }

    private void addRows(Measured m, Table latency, Table targets, Table commits) {
        HttpLoad.Result r = m.result();
        Histogram h = r.latency();
        double rate = r.perSecond();
        double p99 = h.getValueAtPercentile(99) / 1e6;
        latency.row(
                label(m.keys()),
                r.ok(),
                Table.num(rate, 0),
                Table.ms(h.getValueAtPercentile(50)),
                Table.ms(h.getValueAtPercentile(90)),
                Table.ms(h.getValueAtPercentile(99)),
                Table.ms(h.getValueAtPercentile(99.9)),
                Table.ms(h.getMaxValue()),
                r.statuses());
        targets.row(
                label(m.keys()),
                Table.num(rate / TARGET_JOBS_PER_SECOND, 2)
                        + (rate >= TARGET_JOBS_PER_SECOND ? " (met)" : " (not met)"),
                (p99 <= TARGET_P99_MS ? "yes" : "no") + " (" + Table.num(p99, 2) + " ms)",
                Table.num(rate / baseline.nClients(), 2),
                Table.num(rate / baseline.oneClient(), 2));
        double jobs = Math.max(1, r.ok());
        commits.row(
                label(m.keys()),
                Table.num((m.after().commits() - m.before().commits()) / jobs, 2),
                Table.num((m.after().nextXid() - m.before().nextXid()) / jobs, 2),
                m.after().rollbacks() - m.before().rollbacks());
    }

    static Table cpuTable() {
        List<String> header = new ArrayList<>();
        header.add("run");
        header.addAll(List.of(CpuMeter.GROUPS));
        header.add("PostgreSQL CPU µs/job");
        header.add("Idem JVM CPU µs/job (incl. GC, JIT)");
        return new Table(header.toArray(String[]::new));
    }

    static void addCpuRow(Table table, String label, Map<String, Double> cores, double jobsPerSecond) {
        List<Object> row = new ArrayList<>();
        row.add(label);
        for (String group : CpuMeter.GROUPS) {
            row.add(Table.num(cores.get(group), 2));
        }
        double jvm = cores.get("Idem JVM (rest)") + cores.get("JVM GC") + cores.get("JVM JIT");
        row.add(Table.num(cores.get("PostgreSQL") * 1e6 / jobsPerSecond, 0));
        row.add(Table.num(jvm * 1e6 / jobsPerSecond, 0));
        table.row(row.toArray());
    }

    private static String label(HttpLoad.Keys keys) {
        return switch (keys) {
            case NONE -> "no Idempotency-Key";
            case UNIQUE -> "new Idempotency-Key each";
        };
    }
}
