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
}
