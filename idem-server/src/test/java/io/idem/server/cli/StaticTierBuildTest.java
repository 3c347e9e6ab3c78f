package io.idem.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idem.providers.chat.StaticAnswers;
import io.idem.server.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code idem static build} against a node that keeps answers: the most asked single-turn prompt
 * becomes the answers file a static tier reads, with the coverage it would have had; multi-turn
 * calls and the static tier's own answers are never kept, and a node that keeps nothing says so.
 */
class StaticTierBuildTest {
    private static final String CHAT = "/v1/chat/completions";

    private static void ask(TestServer server, String model, String messages) {
        var reply = server.post(
                CHAT, TestServer.ADMIN_KEY, "{\"model\": \"" + model + "\", \"messages\": " + messages + "}");
        assertThat(reply.status()).as(reply.raw()).isEqualTo(200);
    }

    private static String user(String text) {
        return "[{\"role\": \"system\", \"content\": \"be brief\"}, {\"role\": \"user\", \"content\": \"" + text
                + "\"}]";
    }

    private static int build(TestServer server, String... args) {
        String[] all = new String[args.length + 6];
        all[0] = "static";
        all[1] = "build";
        System.arraycopy(args, 0, all, 2, args.length);
        all[args.length + 2] = "--server";
        all[args.length + 3] = server.node().baseUrl();
        all[args.length + 4] = "--api-key";
        all[args.length + 5] = TestServer.ADMIN_KEY;
        return new CommandLine(new Main()).execute(all);
    }

    @Test
    void theMostAskedPromptsBecomeTheAnswersFileWithTheirCoverage(@TempDir Path dir) {
        try (TestServer server = TestServer.start(Map.of("IDEM_CHAT_ANSWER_RETENTION_DAYS", "7"))) {
            for (int i = 0; i < 3; i++) {
                ask(server, "fake-chat-a", user("What is Idem?"));
            }
            ask(server, "fake-chat-b", user("  what is IDEM "));
            ask(server, "fake-chat-a", user("tell me a joke"));
            ask(
                    server,
                    "fake-chat-a",
                    "[{\"role\": \"user\", \"content\": \"hi\"}, {\"role\": \"assistant\","
                            + " \"content\": \"hello\"}, {\"role\": \"user\", \"content\": \"what is idem\"}]");
            ask(server, "static", user("what is idem"));
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(server.get("/v1/admin/static-tier?top=5", TestServer.ADMIN_KEY)
                                    .body()
                                    .at("/coverage/calls")
                                    .asLong())
                            .isEqualTo(5));
            var candidates = server.get("/v1/admin/static-tier?top=1&days=7", TestServer.ADMIN_KEY)
                    .body();
            assertThat(candidates.at("/answers")).hasSize(1);
            assertThat(candidates.at("/answers/0/calls").asLong()).isEqualTo(4);
            assertThat(candidates.at("/coverage/covered").asLong()).isEqualTo(4);
            assertThat(candidates.at("/coverage/ratio").asDouble()).isEqualTo(0.8);
            assertThat(server.get("/v1/admin/static-tier?top=0", TestServer.ADMIN_KEY)
                            .status())
                    .isEqualTo(400);
            assertThat(server.get("/v1/admin/static-tier", server.newKey("c", "client"))
                            .status())
                    .isEqualTo(403);

            Path file = dir.resolve("answers.yaml");
            PrintStream original = System.out;
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            int code;
            try {
                code = build(server, "--top", "1", "--out", file.toString());
            } finally {
                System.setOut(original);
            }
            assertThat(code).as(out.toString(StandardCharsets.UTF_8)).isZero();
            assertThat(out.toString(StandardCharsets.UTF_8)).contains("1 answers written", "4 of 5", "80.0 %");
            StaticAnswers answers = StaticAnswers.read(file);
            assertThat(answers.answer("what is idem?"))
                    .get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .startsWith("Hello from fake-chat-");
            assertThat(answers.answer("tell me a joke")).isEmpty();
        }
    }

    @Test
    void aNodeThatKeepsNoAnswersHasNothingToBuild(@TempDir Path dir) {
        try (TestServer server = TestServer.start()) {
            ask(server, "fake-chat-a", user("What is Idem?"));
            var candidates =
                    server.get("/v1/admin/static-tier", TestServer.ADMIN_KEY).body();
            assertThat(candidates.get("retention_days").asLong()).isZero();
            assertThat(candidates.get("answers")).isEmpty();
            assertThat(build(server, "--out", dir.resolve("a.yaml").toString())).isEqualTo(1);
        }
    }
}
