package io.idem.server.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code idem} command ({@code io.idem.server.cli.Main}) in its own JVM, on the test's class
 * path, with its output appended to a log file. {@link #kill()} is SIGKILL: no shutdown hook, no
 * graceful hand-back, exactly what a crashed node looks like to the database and the vendors.
 */
public final class ChildJvm implements AutoCloseable {
    /** Small, quick-starting child JVMs: the machine is shared and the children do little work. */
    private static final List<String> JVM_OPTIONS =
            List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k", "-Xmx256m", "-XX:-UsePerfData");

    /** Children still running when the test JVM exits (even on a failure or a surefire timeout) die with it. */
    private static final java.util.Set<Process> LIVE = java.util.concurrent.ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly), "chaos-children-reaper"));
    }

    private final String name;
    private final Process process;
    private final Path log;
    private final long logStart;

    private ChildJvm(String name, Process process, Path log, long logStart) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.logStart = logStart;
    }

    /** Starts {@code idem <args>} with {@code env} over a cleaned copy of this process's environment. */
    public static ChildJvm start(String name, List<String> args, Map<String, String> env, Path log) {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.addAll(JVM_OPTIONS);
        command.add("-cp");
        command.add(testClassPath());
        command.add("io.idem.server.cli.Main");
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(ChildJvm::isIdemSetting);
        builder.environment().putAll(env);
        try {
            Files.createDirectories(log.getParent());
            long start = Files.exists(log) ? Files.size(log) : 0;
            Files.writeString(
                    log,
                    "---- start " + name + " " + java.time.Instant.now() + "\n",
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            Process process = builder.start();
            LIVE.add(process);
            process.onExit().thenRun(() -> LIVE.remove(process));
            return new ChildJvm(name, process, log, start);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name + ": " + command, e);
        }
    }

    private static boolean isIdemSetting(String key) {
        return key.startsWith("IDEM_")
                || key.equals("PROVIDERS_JSON")
                || key.startsWith("RECONCILE_")
                || key.startsWith("OPENAI_")
                || key.equals("FAL_KEY")
                || key.equals("REPLICATE_API_TOKEN");
    }

    private static String javaBinary() {
        return ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** Surefire puts the real class path here; {@code java.class.path} may be a manifest-only jar. */
    static String testClassPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /**
     * Waits until this run's output has a line matching {@code pattern}; returns its first group
     * (or the whole match). Fails if the process exits or the time runs out.
     */
    public String awaitLine(Pattern pattern, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<String> found = find(pattern);
            if (found.isPresent()) {
                return found.get();
            }
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        name + " exited with " + process.exitValue() + " before printing " + pattern + "; see " + log);
            }
            sleep(Duration.ofMillis(100));
        }
        throw new IllegalStateException(name + " did not print " + pattern + " within " + within + "; see " + log);
    }

    /** Whether this run's output already has a line matching {@code pattern}. */
    boolean printed(Pattern pattern) {
        return find(pattern).isPresent();
    }

    private Optional<String> find(Pattern pattern) {
        try {
            byte[] all = Files.readAllBytes(log);
            String mine = new String(
                    all,
                    (int) Math.min(logStart, all.length),
                    (int) Math.max(0, all.length - logStart),
                    StandardCharsets.UTF_8);
            Matcher m = pattern.matcher(mine);
            if (!m.find()) {
                return Optional.empty();
            }
            return Optional.of(m.groupCount() > 0 ? m.group(1) : m.group());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** SIGKILL, and waits until the process is gone. */
    public void kill() {
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(10));
    }

    /** SIGTERM (a graceful stop), then SIGKILL if it lingers. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!awaitExit(Duration.ofSeconds(15))) {
            kill();
        }
    }

    private boolean awaitExit(Duration within) {
        try {
            return process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
