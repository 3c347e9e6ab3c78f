package io.idem.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idem.server.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command line against a running server. */
class CliTest {
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String run(String... args) {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            String[] all = new String[args.length + 4];
            System.arraycopy(args, 0, all, 0, args.length);
            all[args.length] = "--server";
            all[args.length + 1] = server.node().baseUrl();
            all[args.length + 2] = "--api-key";
            all[args.length + 3] = TestServer.ADMIN_KEY;
            int code = new CommandLine(new Main()).execute(all);
            assertThat(code).as(out.toString(StandardCharsets.UTF_8)).isZero();
        } finally {
            System.setOut(original);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Exit code and everything printed (stdout and stderr), for commands that need no server. */
    private record Ran(int code, String out) {}

    private static Ran runPlain(String... args) {
        PrintStream originalOut = System.out;
        PrintStream originalErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream both = new PrintStream(out, true, StandardCharsets.UTF_8);
        System.setOut(both);
        System.setErr(both);
        try {
            int code = new CommandLine(new Main()).execute(args);
            return new Ran(code, out.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(originalOut);
            System.setErr(originalErr);
        }
    }

    @Test
    void everyCommandHasHelpAndTheHelpCommandPrintsIt() {
        for (String[] args : new String[][] {
            {"--help"},
            {"serve", "--help"},
            {"jobs", "list", "--help"},
            {"config", "check", "--help"},
            {"webhooks", "--help"},
            {"help", "jobs"},
            {"help"}
        }) {
            Ran ran = runPlain(args);
            assertThat(ran.code()).as(String.join(" ", args) + ": " + ran.out()).isZero();
            assertThat(ran.out()).contains("Usage: idem");
        }
        assertThat(runPlain("--help").out()).contains("jobs", "config", "webhooks", "review", "keys", "help");
    }

    @Test
    void configCheckPrintsEverySettingWithSecretsRedacted(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        java.nio.file.Path good = dir.resolve("idem.yaml");
        java.nio.file.Files.writeString(good, """
                secret: "the-server-secret-0123456789abcdef"
                worker:
                  id: node-a
                  claim_batch: 8
                breaker:
                  cooldown_seconds: 90
                """);
        Ran ran = runPlain("config", "check", "--config", good.toString());
        assertThat(ran.code()).as(ran.out()).isZero();
        assertThat(ran.out())
                .contains("configuration is valid")
                .containsPattern("worker\\.id +node-a +idem\\.yaml +IDEM_WORKER_ID")
                .containsPattern("worker\\.claim_batch +8 +idem\\.yaml +IDEM_WORKER_CLAIM_BATCH")
                .containsPattern("worker\\.lease_seconds +30 +default +IDEM_WORKER_LEASE_SECONDS")
                .containsPattern("breaker\\.cooldown_seconds +90")
                .containsPattern("health_check_seconds +30")
                .containsPattern("secret +\\[set]")
                .doesNotContain("the-server-secret-0123456789abcdef");
    }

    @Test
    void configCheckRefusesAnUnknownKeyNamingTheNearestKnownOne(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws java.io.IOException {
        java.nio.file.Path typo = dir.resolve("idem.yaml");
        java.nio.file.Files.writeString(typo, "breakr:\n  cooldown_seconds: 90\n");
        Ran top = runPlain("config", "check", "--config", typo.toString());
        assertThat(top.code()).isEqualTo(2);
        assertThat(top.out()).contains("unknown setting 'breakr'", "did you mean 'breaker");
        java.nio.file.Files.writeString(typo, "worker:\n  lease_secs: 90\n");
        Ran nested = runPlain("config", "check", "--config", typo.toString());
        assertThat(nested.code()).isEqualTo(2);
        assertThat(nested.out()).contains("unknown setting 'worker.lease_secs'", "did you mean 'worker.lease_seconds'");
    }

    @Test
    void jobsListShowAndCancel() {
        String id = server.post(
                        "/v1/jobs",
                        TestServer.ADMIN_KEY,
                        "{\"prompt\": \"cli\", \"timeout\": 30, \"simulate\": {\"primary\": \"slow:8000\","
                                + " \"backup\": \"slow:8000\"}}")
                .body()
                .get("id")
                .asText();
        assertThat(run("jobs", "list")).contains(id);
        assertThat(run("jobs", "show", id)).contains("\"id\" : \"" + id + "\"").contains("\"attempts\"");
        server.awaitAtVendor();
        assertThat(run("jobs", "cancel", id)).contains(id + " is now canceled");
        assertThat(run("jobs", "list", "--state", "canceled")).contains(id);
    }

    @Test
    void webhooksCreateListDeliveriesAndDelete() {
        String created =
                run("webhooks", "create", "--url", "https://hooks.example.com/idem", "--events", "job.succeeded");
        assertThat(created).contains("\"secret\"").contains("job.succeeded");
        String id = created.replaceAll("(?s).*\"id\" : \"([^\"]+)\".*", "$1");
        assertThat(run("webhooks", "list")).contains(id).doesNotContain("\"secret\"");
        assertThat(run("webhooks", "deliveries", id)).contains("data");
        assertThat(run("webhooks", "delete", id)).contains("deleted " + id);
    }

    @Test
    void keysCreatePrintsTheSecretOnceAndListNeverDoes() {
        String created = run("keys", "create", "--owner", "dana", "--role", "client");
        assertThat(created).contains("\"key\" : \"idem_").contains("\"owner\" : \"dana\"");
        String listed = run("keys", "list");
        assertThat(listed).contains("dana").doesNotContain("\"key\"");
    }

    @Test
    void reviewListAndResolveWorkTheQueue() {
        String id = server.post(
                        "/v1/jobs",
                        TestServer.ADMIN_KEY,
                        "{\"prompt\": \"x\", \"timeout\": 1, \"simulate\": {\"primary\": \"disconnect\"}}")
                .body()
                .get("id")
                .asText();
        await().atMost(Duration.ofSeconds(15))
                .until(() -> server.get("/v1/jobs/" + id, TestServer.ADMIN_KEY)
                        .body()
                        .get("state")
                        .asText()
                        .equals("manual_review"));
        assertThat(run("review", "list")).contains(id).contains("unconfirmed").contains("primary=unconfirmed");
        assertThat(run("review", "resolve", id, "--action", "fail", "--note", "checked with the vendor"))
                .contains("now failed");
    }

    /** {@code idem health}, what a container health check runs: exit 0 on a 200, else 1; no key. */
    @Test
    void healthExitsZeroWhenTheNodeAnswersAndOneWhenItDoesNot() throws java.io.IOException {
        String base = server.node().baseUrl();
        Ran live = runPlain("health", "--server", base);
        assertThat(live.code()).as(live.out()).isZero();
        assertThat(live.out()).contains("healthy: " + base + "/healthz answered 200");
        Ran ready = runPlain("health", "--server", base, "--ready");
        assertThat(ready.code()).as(ready.out()).isZero();
        assertThat(ready.out()).contains(base + "/readyz answered 200");

        Ran wrongPlace = runPlain("health", "--server", base + "/no-such-prefix");
        assertThat(wrongPlace.code()).isEqualTo(1);
        assertThat(wrongPlace.out()).contains("unhealthy:", "answered 404");

        int closed;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        Ran down = runPlain("health", "--server", "http://127.0.0.1:" + closed, "--timeout", "2");
        assertThat(down.code()).isEqualTo(1);
        assertThat(down.out()).contains("unhealthy: http://127.0.0.1:" + closed + "/healthz did not answer");

        Ran badTimeout = runPlain("health", "--timeout", "0");
        assertThat(badTimeout.code()).isEqualTo(2);
        assertThat(badTimeout.out()).contains("--timeout must be 1..60 seconds, was 0");
    }

    @Test
    void healthChecksAWorkerOnlyNodeOnItsManagementPort() {
        try (TestServer worker = TestServer.start(java.util.Map.of("IDEM_ROLE", "worker", "IDEM_METRICS_PORT", "0"))) {
            String management = worker.node().managementUrl().orElseThrow();
            Ran ready = runPlain("health", "--server", management, "--ready");
            assertThat(ready.code()).as(ready.out()).isZero();
            assertThat(ready.out()).contains("healthy: " + management + "/readyz answered 200");
        }
    }
}
