package io.idem.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one run of {@link LoadBench} does, parsed from the command line and checked: every bound is
 * finite, so a run always ends by itself.
 *
 * @param scenario {@code accept} or {@code drain}
 * @param clients concurrent HTTP clients (accept, and the drain's pre-fill)
 * @param warmup load before the accept measurement starts
 * @param measure how long the accept measurement runs
 * @param jobs jobs queued before each drain
 * @param workers the worker concurrencies to drain with, one fresh copy of the queue each
 * @param drainLimit the longest one drain may take before it is cut off and reported as partial
 * @param baseline how long each raw-PostgreSQL baseline runs
 * @param database fsync: whether PostgreSQL flushes its WAL to disk at all (see {@link BenchCluster#start});
 *     synchronousCommit: PostgreSQL's {@code synchronous_commit} for the benchmark databases
 *     analyze: whether the database is analyzed once it holds representative rows, as autovacuum
 *     does in a running install; without, the plans made on empty tables stay cached (a fresh install);
 *     statements: how many of the costliest SQL statements (pg_stat_statements) each measurement lists
 */
record BenchOptions(
        String scenario,
        int clients,
        Duration warmup,
        Duration measure,
        int jobs,
        List<Integer> workers,
        Duration drainLimit,
        Duration baseline,
        Database database) {

    /** How the benchmark's PostgreSQL runs: fsync, synchronous commit, ANALYZE once the tables fill. */
    record Database(boolean fsync, boolean synchronousCommit, boolean analyze, int statements) {}

    /** How many of PostgreSQL's costliest statements each measurement lists (0: none, and no pg_stat_statements). */
    int statements() {
        return database.statements();
    }

    boolean fsync() {
        return database.fsync();
    }

    boolean synchronousCommit() {
        return database.synchronousCommit();
    }

    boolean analyze() {
        return database.analyze();
    }

    static final String USAGE = """
            usage: LoadBench accept|drain [options]
              --clients N              concurrent HTTP clients (default 16)
              --warmup SECONDS         warm-up per accept variant, or the drain warm-up (default 20)
              --seconds SECONDS        accept: measured time per variant (default 15)
              --jobs N                 drain: jobs queued before each drain (default 20000)
              --workers A,B,...        drain: worker concurrencies (default 1,4,16,64)
              --drain-limit SECONDS    drain: cut-off per concurrency (default 30)
              --baseline SECONDS       raw PostgreSQL INSERT baseline per client count (default 5)
              --fsync on|off           on: a PostgreSQL of its own as Idem embeds it (fsync=on);
                                       off: the tests' shared server (started with -F, no fsync)
              --synchronous-commit on|off   (default on; with --fsync on, the targets' setting)
              --analyze on|off         on (default): ANALYZE once the tables hold representative rows
                                       (accept: after the warm-up; drain: with 1,000 jobs already run),
                                       as autovacuum does in a running install; off: plans made on
                                       empty tables stay cached, as in a fresh install's first minute
              --statements N           list PostgreSQL's N costliest statements per measured job
                                       (pg_stat_statements, loaded only then; needs --fsync on)
            """;

    BenchOptions {
        if (database.statements() > 0 && !database.fsync()) {
            throw new IllegalArgumentException("--statements needs --fsync on (a PostgreSQL of the bench's own)");
        }
        if (!scenario.equals("accept") && !scenario.equals("drain")) {
            throw new IllegalArgumentException("scenario must be accept or drain, was '" + scenario + "'");
        }
        positive("--clients", clients);
        positive("--jobs", jobs);
        workers = List.copyOf(workers);
        if (workers.isEmpty()) {
            throw new IllegalArgumentException("--workers needs at least one concurrency");
        }
        workers.forEach(w -> positive("--workers", w));
        positive("--seconds", measure.toSeconds());
        positive("--drain-limit", drainLimit.toSeconds());
        if (warmup.isNegative() || baseline.isNegative()) {
            throw new IllegalArgumentException("--warmup and --baseline must not be negative");
        }
    }

    static BenchOptions parse(String[] args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("name a scenario");
        }
        String scenario = args[0];
        int clients = 16;
        long warmup = 20;
        long measure = 15;
        int jobs = 20_000;
        List<Integer> workers = List.of(1, 4, 16, 64);
        long drainLimit = 30;
        long baseline = 5;
        boolean fsync = true;
        boolean sync = true;
        boolean analyze = true;
        int statements = 0;
        for (int i = 1; i < args.length; i += 2) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            String value = args[i + 1];
            switch (name) {
                case "--clients" -> clients = number(name, value);
                case "--warmup" -> warmup = number(name, value);
                case "--seconds" -> measure = number(name, value);
                case "--jobs" -> jobs = number(name, value);
                case "--workers" -> workers = list(name, value);
                case "--drain-limit" -> drainLimit = number(name, value);
                case "--baseline" -> baseline = number(name, value);
                case "--fsync" -> fsync = onOff(name, value);
                case "--synchronous-commit" -> sync = onOff(name, value);
                case "--analyze" -> analyze = onOff(name, value);
                case "--statements" -> statements = number(name, value);
                default -> throw new IllegalArgumentException("unknown option '" + name + "'");
            }
        }
        return new BenchOptions(
                scenario,
                clients,
                Duration.ofSeconds(warmup),
                Duration.ofSeconds(measure),
                jobs,
                workers,
                Duration.ofSeconds(drainLimit),
                Duration.ofSeconds(baseline),
                new Database(fsync, sync, analyze, statements));
    }

    private static int number(String name, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, was '" + value + "'");
        }
    }

    private static List<Integer> list(String name, String value) {
        List<Integer> out = new ArrayList<>();
        Arrays.stream(value.split(",")).map(String::trim).forEach(v -> out.add(number(name, v)));
        return out;
    }

    private static boolean onOff(String name, String value) {
        return switch (value) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new IllegalArgumentException(name + " must be on or off, was '" + value + "'");
        };
    }

    private static void positive(String name, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, was " + value);
        }
    }
}
