package io.idem.bench;

import io.idem.server.IdemServer;
import io.idem.server.config.ConfigLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One Idem node started in this process the way {@code ./idem serve} would, on a given database and
 * role, with the default routing: two in-process fake vendors answering {@code ok} at once. Its data
 * directory (the stored result files) is deleted on close.
 */
final class BenchNode implements AutoCloseable {
    static final String ADMIN_KEY = "idem_bench_admin_key_0123456789";

    private final IdemServer server;
    private final Path dataDir;

    private BenchNode(IdemServer server, Path dataDir) {
        this.server = server;
        this.dataDir = dataDir;
    }

    /** An API-only node: accepts jobs, runs none. */
    static BenchNode api(String databaseUrl) {
        return start(databaseUrl, Map.of("IDEM_ROLE", "api"));
    }

    /** A worker-only node running {@code concurrency} jobs at once. */
    static BenchNode worker(String databaseUrl, int concurrency) {
        return start(
                databaseUrl, Map.of("IDEM_ROLE", "worker", "IDEM_WORKER_CONCURRENCY", String.valueOf(concurrency)));
    }

    /** API and worker in one node, as {@code ./idem serve} runs by default. */
    static BenchNode all(String databaseUrl, int concurrency) {
        return start(databaseUrl, Map.of("IDEM_ROLE", "all", "IDEM_WORKER_CONCURRENCY", String.valueOf(concurrency)));
    }

    static BenchNode start(String databaseUrl, Map<String, String> extra) {
        try {
            Path dataDir = Files.createTempDirectory("idem-bench");
            Map<String, String> env = new HashMap<>();
            env.put("IDEM_HOST", "127.0.0.1");
            env.put("IDEM_PORT", "0");
            env.put("IDEM_DATA_DIR", dataDir.toString());
            env.put("IDEM_DATABASE_URL", databaseUrl);
            env.put("IDEM_BOOTSTRAP_KEY", ADMIN_KEY);
            env.put("IDEM_SECRET", "bench-secret-0123456789abcdef");
            env.putAll(extra);
            var config = new ConfigLoader(env).load(Optional.empty());
            return new BenchNode(IdemServer.start(config, new PrintStream(PrintStream.nullOutputStream())), dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    IdemServer server() {
        return server;
    }

    /** Generations the fake vendors billed (their own invoices), across both vendors. */
    long billedCalls() {
        return server.fakes().values().stream()
                .mapToLong(f -> f.ledger().size())
                .sum();
    }

    @Override
    public void close() {
        server.close();
        try (Stream<Path> files = Files.walk(dataDir)) {
            files.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not remove " + dataDir + ": " + e);
        }
    }
}
