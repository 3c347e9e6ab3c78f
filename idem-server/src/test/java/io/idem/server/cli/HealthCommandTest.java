package io.idem.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.server.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code idem health}, what a container health check runs: exit 0 when the node answers 200, 1 when
 * it answers anything else or nothing, on the API port and on a worker-only node's management port.
 */
class HealthCommandTest {

    private record Ran(int code, String out) {}

    private static Ran health(String... args) {
        PrintStream originalOut = System.out;
        PrintStream originalErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream both = new PrintStream(out, true, StandardCharsets.UTF_8);
        System.setOut(both);
        System.setErr(both);
        try {
            String[] all = new String[args.length + 1];
            all[0] = "health";
            System.arraycopy(args, 0, all, 1, args.length);
            return new Ran(new CommandLine(new Main()).execute(all), out.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(originalOut);
            System.setErr(originalErr);
        }
    }

    @Test
    void aNodeThatAnswersIsHealthyAndReadyWithoutAKey() {
        try (TestServer server = TestServer.start()) {
            String base = server.node().baseUrl();
            Ran live = health("--server", base);
            assertThat(live.code()).as(live.out()).isZero();
            assertThat(live.out()).contains("healthy: " + base + "/healthz answered 200");
            Ran ready = health("--server", base, "--ready");
            assertThat(ready.code()).as(ready.out()).isZero();
            assertThat(ready.out()).contains(base + "/readyz answered 200");

            Ran wrongPlace = health("--server", base + "/no-such-prefix");
            assertThat(wrongPlace.code()).isEqualTo(1);
            assertThat(wrongPlace.out()).contains("unhealthy:", "answered 404");
        }
    }

    @Test
    void aWorkerOnlyNodeIsCheckedOnItsManagementPort() {
        try (TestServer worker = TestServer.start(Map.of("IDEM_ROLE", "worker", "IDEM_METRICS_PORT", "0"))) {
            String management = worker.node().managementUrl().orElseThrow();
            Ran ready = health("--server", management, "--ready");
            assertThat(ready.code()).as(ready.out()).isZero();
            assertThat(ready.out()).contains("healthy: " + management + "/readyz answered 200");
        }
    }

    @Test
    void nobodyListeningIsUnhealthyAndABadTimeoutIsRefused() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        Ran down = health("--server", "http://127.0.0.1:" + closed, "--timeout", "2");
        assertThat(down.code()).isEqualTo(1);
        assertThat(down.out()).contains("unhealthy: http://127.0.0.1:" + closed + "/healthz did not answer");

        Ran badTimeout = health("--timeout", "0");
        assertThat(badTimeout.code()).isEqualTo(2);
        assertThat(badTimeout.out()).contains("--timeout must be 1..60 seconds, was 0");
    }
}
