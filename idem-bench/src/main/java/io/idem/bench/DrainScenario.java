package io.idem.bench;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Jobs end to end: N jobs are queued once through an API-only node (so every row is one the API
 * wrote), that database is copied once per worker concurrency, and a worker-only node drains each
 * copy while this polls for the last non-succeeded job. The rate is taken over the database's own
 * timestamps, first claim to last settle, so node start-up and poll granularity do not count.
 */
final class DrainScenario {
    static final double TARGET_JOBS_PER_SECOND = 5_000;
    private static final long POLL_MILLIS = 100;

    private final BenchCluster cluster;
    private final BenchOptions options;
    private final LoadBench.Baseline baseline;
    private final PrintStream out;
    private final StatementCosts statements;

    /** One drain: counts from the database after the worker stopped. */
    private record Drained(
            int workers,
            DrainCounts counts,
            double wallSeconds,
            long transactions,
            long writeTransactions,
            long billed,
            DrainTimings timings,
            RelationReads reads,
            Map<String, Double> cores) {
        long done() {
            return counts.succeeded();
        }

        double perSecond() {
            return done() / counts.windowSeconds();
        }
    }

    DrainScenario(BenchCluster cluster, BenchOptions options, LoadBench.Baseline baseline, PrintStream out) {
        this.cluster = cluster;
        this.options = options;
        this.baseline = baseline;
        this.out = out;
        this.statements = new StatementCosts(cluster, options.statements());
    }

    void run() {
        String template = cluster.fresh();
        QueueFill.fill(template, options.jobs(), options.clients(), options.analyze(), out);
        CpuMeter cpu = new CpuMeter(cluster.postmasterPid());
        if (!options.warmup().isZero()) {
            // The worker path (claim, attempt, vendor call, settle) warms the JIT on a copy first, so
            // the first concurrency measured is not also the one that pays for compilation.
            String copy = cluster.cloneOf(template);
            out.printf(
                    "drain warm-up: concurrency 16 on a copy for %d s, not reported%n",
                    options.warmup().toSeconds());
            drain(copy, 16, cpu, options.warmup());
            cluster.drop(copy);
        }
        List<Drained> runs = new ArrayList<>();
        for (int workers : options.workers()) {
            String copy = cluster.cloneOf(template);
            out.printf(
                    "drain: %d jobs with worker concurrency %d (cut off after %d s)%n",
                    options.jobs(), workers, options.drainLimit().toSeconds());
            statements.reset();
            Drained drained = drain(copy, workers, cpu, options.drainLimit());
            statements.print(out, "drain at concurrency " + workers, copy, drained.done());
            runs.add(drained);
            cluster.drop(copy);
        }
        out.println();
        report(runs);
    }

    private Drained drain(String url, int workers, CpuMeter cpu, Duration limit) {
        BenchCluster.Counters before = cluster.settledCounters(url);
        long polls = 0;
        long remaining;
        long billed;
        CpuMeter.Sample from = cpu.sample();
        CpuMeter.Sample to;
        Instant since = Instant.now().minusMillis(5); // the database's clock is this machine's
        long started = System.nanoTime();
        long deadline = started + limit.toNanos();
        try (Connection poll = DriverManager.getConnection(url);
                Statement st = poll.createStatement();
                BenchNode node = BenchNode.worker(url, workers)) {
            do {
                BenchCluster.pause(POLL_MILLIS);
                // each EXISTS walks its partial index in index order, so one poll reads a row or two
                remaining = count(st, """
                        SELECT (EXISTS (SELECT 1 FROM jobs WHERE state = 'queued' ORDER BY created_at, id LIMIT 1)
                                OR EXISTS (SELECT 1 FROM jobs WHERE state = 'running'
                                            ORDER BY lease_expires_at LIMIT 1))::int
                        """);
                polls++;
            } while (remaining > 0 && System.nanoTime() < deadline);
            to = cpu.sample();
            billed = node.billedCalls();
        } catch (SQLException e) {
            throw new IllegalStateException("polling the drain failed", e);
        }
        double wall = (System.nanoTime() - started) / 1e9;
        BenchCluster.Counters after = cluster.settledCounters(url);
        try (Connection c = DriverManager.getConnection(url);
                Statement st = c.createStatement()) {
            RelationReads reads = RelationReads.read(st);
            DrainCounts counts = DrainCounts.read(c, since);
            DrainTimings timings = DrainTimings.read(c, since);
            return new Drained(
                    workers,
                    counts,
                    wall,
                    after.commits() - before.commits() - polls,
                    after.nextXid() - before.nextXid(),
                    billed,
                    timings,
                    reads,
                    CpuMeter.cores(from, to));
        } catch (SQLException e) {
            throw new IllegalStateException("reading the drain's results failed", e);
        }
    }

    private static long count(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void report(List<Drained> runs) {
        out.printf("## Drain: %d queued jobs, zero-latency fake vendor, worker-only node%n%n", options.jobs());
        Table rates = new Table(
                "worker concurrency",
                "succeeded",
                "first claim → last settle s",
                "jobs/s",
                "wall s (incl. node start)",
                "jobs/s ÷ target 5k",
                "jobs/s ÷ raw INSERT commits/s @" + baseline.clients(),
                "final states");
        Table commits = new Table(
                "worker concurrency",
                "transactions/job (pg_stat_database)",
                "write transactions/job (xids)",
                "claim statements",
                "jobs per claim",
                "attempts/job",
                "vendor-billed calls/job",
                "commit-bound ceiling jobs/s");
        Table cpu = AcceptScenario.cpuTable();
        Table timings = DrainTimings.table();
        Table reads = RelationReads.table();
        for (Drained d : runs) {
            d.reads().addRows(reads, "concurrency " + d.workers(), d.done(), 6);
            d.timings().addRow(timings, d.workers(), d.workers() / d.perSecond() * 1e3);
            addRows(d, rates, commits);
            AcceptScenario.addCpuRow(cpu, "concurrency " + d.workers(), d.cores(), d.done() / d.wallSeconds());
        }
        print(rates, commits, timings, reads, cpu);
    }

    private void addRows(Drained d, Table rates, Table commits) {
        double jobs = Math.max(1, d.done());
        double writes = d.writeTransactions() / jobs;
        rates.row(
                d.workers(),
                d.done(),
                Table.num(d.counts().windowSeconds(), 2),
                Table.num(d.perSecond(), 0),
                Table.num(d.wallSeconds(), 2),
                Table.num(d.perSecond() / TARGET_JOBS_PER_SECOND, 2)
                        + (d.perSecond() >= TARGET_JOBS_PER_SECOND ? " (met)" : " (not met)"),
                Table.num(d.perSecond() / baseline.nClients(), 2),
                d.counts().states());
        commits.row(
                d.workers(),
                Table.num(d.transactions() / jobs, 2),
                Table.num(writes, 2),
                d.counts().claims(),
                Table.num(jobs / Math.max(1, d.counts().claims()), 1),
                Table.num(d.counts().attempts() / jobs, 2),
                Table.num(d.billed() / jobs, 2),
                Table.num(baseline.nClients() / writes, 0));
    }

    private void print(Table rates, Table commits, Table timings, Table reads, Table cpu) {
        rates.print(out);
        out.println(
                "### Commits per job (the ceiling divides the raw INSERT commits/s above by write transactions/job)");
        out.println();
        commits.print(out);
        out.println("### Where a job's time goes inside the worker (from the rows' own timestamps)");
        out.println();
        timings.print(out);
        out.println("### What the drain read, per job (pg_stat_user_tables / pg_stat_user_indexes, top 6)");
        out.println();
        reads.print(out);
        out.println("### CPU from node start to the last job, in cores (of "
                + Runtime.getRuntime().availableProcessors() + ")");
        out.println();
        cpu.print(out);
    }
}
