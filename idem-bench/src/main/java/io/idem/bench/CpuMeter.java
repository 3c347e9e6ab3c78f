package io.idem.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where the machine's CPU went during a measurement, from Linux {@code /proc}: this JVM by thread
 * group, the PostgreSQL cluster (postmaster, live backends, and reaped backends through the
 * postmaster's child times), and everything else on the machine (another engineer's build, say).
 * "HTTP clients" are the platform threads named {@code bench-client-*} and the JDK HttpClient's own
 * ({@code HttpClient-*}: the load generator's, and in a drain the fake adapters'). Virtual threads cannot be told apart here: the server, the worker and the in-process fake vendor
 * all run on the same carrier threads, so they share one group. Linux only; not thread-safe.
 */
final class CpuMeter {
    private static final double TICKS_PER_SECOND = 100.0; // USER_HZ; getconf CLK_TCK on Linux
    static final String[] GROUPS = {
        "HTTP clients", "JVM GC", "JVM JIT", "Idem JVM (rest)", "PostgreSQL", "rest of machine", "idle"
    };

    private final long postmasterPid;

    /** Cumulative CPU ticks per group at one moment. */
    record Sample(long nanos, Map<String, Long> ticks) {}

    CpuMeter(long postmasterPid) {
        this.postmasterPid = postmasterPid;
    }

    Sample sample() {
        Map<String, Long> ticks = new LinkedHashMap<>();
        long jvm = processTicks(Path.of("/proc/self/stat"), false);
        long clients = 0;
        long gc = 0;
        long jit = 0;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                String name = read(task.resolve("comm")).strip();
                long used = processTicks(task.resolve("stat"), false);
                if (name.startsWith("bench-client") || name.startsWith("HttpClient")) {
                    clients += used;
                } else if (name.startsWith("GC Thread") || name.startsWith("G1 ")) {
                    gc += used;
                } else if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
                    jit += used;
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list this JVM's threads", e);
        }
        long postgres = postgresTicks();
        String[] cpu = read(Path.of("/proc/stat"))
                .lines()
                .findFirst()
                .orElseThrow()
                .trim()
                .split("\\s+");
        long total = 0;
        for (int i = 1; i < cpu.length && i <= 8; i++) {
            total += Long.parseLong(cpu[i]);
        }
        long idle = Long.parseLong(cpu[4]) + Long.parseLong(cpu[5]);
        ticks.put("HTTP clients", clients);
        ticks.put("JVM GC", gc);
        ticks.put("JVM JIT", jit);
        ticks.put("Idem JVM (rest)", jvm - clients - gc - jit);
        ticks.put("PostgreSQL", postgres);
        ticks.put("rest of machine", total - idle - jvm - postgres);
        ticks.put("idle", idle);
        return new Sample(System.nanoTime(), ticks);
    }

    /** Cores used per group between two samples. */
    static Map<String, Double> cores(Sample from, Sample to) {
        double seconds = (to.nanos() - from.nanos()) / 1e9;
        Map<String, Double> out = new LinkedHashMap<>();
        for (String group : GROUPS) {
            long delta = to.ticks().get(group) - from.ticks().get(group);
            // machine-wide idle ticks sum over all cores, like the others
            out.put(group, delta / TICKS_PER_SECOND / seconds);
        }
        return out;
    }

    private long postgresTicks() {
        long sum = processTicks(Path.of("/proc/" + postmasterPid + "/stat"), true);
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path proc : procs.toList()) {
                String pid = proc.getFileName().toString();
                if (!pid.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                String[] fields = fields(proc.resolve("stat"));
                if (fields != null && Long.parseLong(fields[1]) == postmasterPid) {
                    sum += processTicks(proc.resolve("stat"), true);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list processes", e);
        }
        return sum;
    }

    /** The parent process id of {@code pid}. */
    static long parentOf(long pid) {
        String[] fields = fields(Path.of("/proc/" + pid + "/stat"));
        if (fields == null) {
            throw new IllegalStateException("process " + pid + " is gone");
        }
        return Long.parseLong(fields[1]);
    }

    /** utime + stime, and with {@code children} also the reaped children's cutime + cstime. */
    private static long processTicks(Path stat, boolean children) {
        String[] f = fields(stat);
        if (f == null) {
            return 0; // exited between listing and reading
        }
        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        return children ? ticks + Long.parseLong(f[13]) + Long.parseLong(f[14]) : ticks;
    }

    /** The fields of a stat file after the command name (field 3, the state, is index 0). */
    private static String[] fields(Path stat) {
        try {
            String line = Files.readString(stat);
            return line.substring(line.lastIndexOf(')') + 2).trim().split(" ");
        } catch (IOException e) {
            return null;
        }
    }

    private static String read(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            return "";
        }
    }
}
