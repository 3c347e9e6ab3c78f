package io.idem.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Idem's load tool (PERFORMANCE.md: run by hand, recorded in {@code docs/benchmarks.md}, never a
 * timed assertion in a test). {@code accept}: {@code POST /v1/jobs} throughput and latency at N
 * concurrent clients against an API-only node. {@code drain}: jobs per second end to end through a
 * worker-only node at several concurrencies, with a zero-latency fake vendor. Both measure a raw
 * PostgreSQL commit baseline first, on the same embedded server, and count commits per job.
 * Everything runs in this JVM against 127.0.0.1 and stops by itself.
 */
public final class LoadBench {
    private LoadBench() {}

    public static void main(String[] args) {
        System.setProperty("logback.configurationFile", "logback-bench.xml");
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.print(BenchOptions.USAGE);
            System.exit(2);
            return;
        }
        PrintStream out = System.out;
        try (BenchCluster cluster =
                BenchCluster.start(options.fsync(), options.synchronousCommit(), options.statements() > 0)) {
            String baselineUrl = cluster.fresh();
            Map<String, String> settings = new LinkedHashMap<>(cluster.settings(baselineUrl));
            settings.put("server-wide synchronous_commit", cluster.serverSetting("synchronous_commit"));
            settings.put("server-wide fsync", cluster.serverSetting("fsync"));
            printMachine(out, settings, options);
            Baseline baseline = Baseline.measure(cluster, baselineUrl, options, out);
            switch (options.scenario()) {
                case "accept" -> new AcceptScenario(cluster, options, baseline, out).run();
                case "drain" -> new DrainScenario(cluster, options, baseline, out).run();
                default -> throw new IllegalStateException("unreachable: " + options.scenario());
            }
        }
        // the embedded PostgreSQL stops in a shutdown hook; the node's threads are daemons or closed
        System.exit(0);
    }

    /**
     * Raw single-row INSERT commits/s at 1 and at N clients, measured in this run, and what one
     * commit costs PostgreSQL in CPU at N clients.
     */
    record Baseline(double oneClient, double nClients, int clients, double postgresMicrosPerCommit) {
        static Baseline measure(BenchCluster cluster, String url, BenchOptions options, PrintStream out) {
            out.println("## Peer: raw PostgreSQL, one-row INSERT per commit, same server, measured now");
            out.println();
            CpuMeter cpu = new CpuMeter(cluster.postmasterPid());
            CommitBaseline.run(url, options.clients(), Duration.ofSeconds(1)); // warm the driver and the table
            Table table = new Table("JDBC clients", "commits/s", "PostgreSQL CPU µs/commit", "rest of machine, cores");
            double one = 0;
            double many = 0;
            double micros = 0;
            for (int clients : new int[] {1, options.clients()}) {
                CpuMeter.Sample from = cpu.sample();
                double rate = CommitBaseline.run(url, clients, options.baseline());
                Map<String, Double> cores = CpuMeter.cores(from, cpu.sample());
                double perCommit = cores.get("PostgreSQL") * 1e6 / rate;
                table.row(
                        clients,
                        Table.num(rate, 0),
                        Table.num(perCommit, 0),
                        Table.num(cores.get("rest of machine"), 2));
                if (clients == 1) {
                    one = rate;
                } else {
                    many = rate;
                    micros = perCommit;
                }
            }
            table.print(out);
            return new Baseline(one, many, options.clients(), micros);
        }
    }

    private static void printMachine(PrintStream out, Map<String, String> pg, BenchOptions options) {
        out.println("## Machine");
        out.println();
        Table machine = new Table("what", "value")
                .row("cores (nproc)", Runtime.getRuntime().availableProcessors())
                .row("memory", Table.num(memTotalGb(), 1) + " GB")
                .row("cpu", cpuModel())
                .row("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"))
                .row(
                        "jvm flags",
                        String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
        pg.forEach((name, value) -> machine.row("postgres " + name, value));
        machine.row("bench options", options);
        machine.print(out);
    }

    private static double memTotalGb() {
        return meminfo()
                .lines()
                .filter(l -> l.startsWith("MemTotal:"))
                .map(l -> Long.parseLong(l.replaceAll("\\D", "")) / 1024.0 / 1024.0)
                .findFirst()
                .orElse(0.0);
    }

    private static String meminfo() {
        try {
            return Files.readString(Path.of("/proc/meminfo"));
        } catch (IOException e) {
            return "";
        }
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse("?");
        } catch (IOException e) {
            return "?";
        }
    }
}
