package io.idem.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.postgres.TestDatabases;
import io.idem.server.config.ConfigLoader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/** The first admin key is created exactly once per database, and printed only where someone can read it. */
class BootstrapTest {

    /** A node on {@code databaseUrl} without IDEM_BOOTSTRAP_KEY, printing to {@code console}. */
    private static IdemServer node(String databaseUrl, String role, PrintStream console) {
        try {
            var config = new ConfigLoader(Map.of(
                            "IDEM_PORT",
                            "0",
                            "IDEM_DATA_DIR",
                            Files.createTempDirectory("idem-bootstrap").toString(),
                            "IDEM_DATABASE_URL",
                            databaseUrl,
                            "IDEM_SECRET",
                            "test-secret-0123456789abcdef",
                            "IDEM_ROLE",
                            role))
                    .load(Optional.empty());
            return IdemServer.start(config, console);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int adminKeys(IdemServer node) {
        return node.database().withConnection(c -> {
            try (var rs = c.createStatement().executeQuery("SELECT count(*) FROM api_keys WHERE role = 'admin'")) {
                rs.next();
                return rs.getInt(1);
            }
        });
    }

    private static long printedKeys(List<ByteArrayOutputStream> consoles) {
        return consoles.stream()
                .map(out -> out.toString(StandardCharsets.UTF_8))
                .filter(text -> text.contains("Admin API key"))
                .count();
    }

    @RepeatedTest(3)
    void twoNodesStartingTogetherOnAnEmptyDatabaseCreateOneAdminKey() throws Exception {
        String url = TestDatabases.freshUrl();
        List<ByteArrayOutputStream> consoles = List.of(new ByteArrayOutputStream(), new ByteArrayOutputStream());
        CountDownLatch go = new CountDownLatch(1);
        List<IdemServer> nodes = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            List<Future<IdemServer>> starting = new ArrayList<>();
            for (ByteArrayOutputStream console : consoles) {
                starting.add(pool.submit(() -> {
                    go.await();
                    return node(url, "all", new PrintStream(console, true, StandardCharsets.UTF_8));
                }));
            }
            go.countDown();
            for (Future<IdemServer> node : starting) {
                nodes.add(node.get());
            }
            assertThat(adminKeys(nodes.getFirst())).isEqualTo(1);
            assertThat(printedKeys(consoles)).isEqualTo(1);
        } finally {
            nodes.forEach(IdemServer::close);
        }
    }

    @Test
    void aWorkerOnlyNodeNeitherCreatesNorPrintsAKey() {
        String url = TestDatabases.freshUrl();
        ByteArrayOutputStream workerConsole = new ByteArrayOutputStream();
        try (IdemServer worker = node(url, "worker", new PrintStream(workerConsole, true, StandardCharsets.UTF_8))) {
            assertThat(adminKeys(worker)).isZero();
            assertThat(workerConsole.toString(StandardCharsets.UTF_8)).doesNotContain("idem_");

            ByteArrayOutputStream apiConsole = new ByteArrayOutputStream();
            try (IdemServer api = node(url, "api", new PrintStream(apiConsole, true, StandardCharsets.UTF_8))) {
                assertThat(adminKeys(api)).isEqualTo(1);
                assertThat(apiConsole.toString(StandardCharsets.UTF_8)).contains("Admin API key");
            }
        }
    }
}
