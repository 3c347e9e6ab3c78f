package io.idem.server.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.TestServer;
import io.idem.server.http.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The official {@code openai} npm client, unmodified, calls Idem plain and streaming
 * ({@code src/test/node}; {@code .ci/run} installs it with {@code npm ci}). Skipped only when there
 * is no {@code node} on the PATH.
 */
class OpenAiNodeClientTest {
    private static final Path NODE_DIR = Path.of("src/test/node");

    @Test
    void theOfficialClientCallsIdemPlainAndStreamingUnmodified() throws Exception {
        assumeThat(onPath("node"))
                .as("node is not installed: the openai npm client check is skipped")
                .isTrue();
        if (!Files.isDirectory(NODE_DIR.resolve("node_modules/openai"))) {
            run(List.of("npm", "ci", "--no-audit", "--no-fund"), null, 300);
        }
        try (TestServer server = TestServer.start()) {
            String output = run(List.of("node", "openai-client.mjs"), server, 120);
            JsonNode seen =
                    Json.MAPPER.readTree(output.lines().reduce((a, b) -> b).orElseThrow());

            assertThat(seen.at("/plain/content").asText()).isEqualTo("Hello from fake-chat-a. You said: hi there");
            assertThat(seen.at("/plain/model").asText()).isEqualTo("fake-chat-a");
            assertThat(seen.at("/plain/usage/total_tokens").asInt()).isEqualTo(9);

            assertThat(seen.at("/stream/text").asText()).isEqualTo("Hello from fake-chat-b. You said: hi there");
            assertThat(seen.at("/stream/served").asText()).isEqualTo("fake-chat-b");
            assertThat(seen.at("/stream/header").asText()).isEqualTo("fake-chat-b");
            assertThat(seen.at("/stream/usage/completion_tokens").asInt()).isEqualTo(7);

            assertThat(seen.at("/allFailed/raised").asBoolean()).isTrue();
            assertThat(seen.at("/allFailed/status").asInt()).isEqualTo(502);
            assertThat(seen.at("/allFailed/code").asText()).isEqualTo("all_models_failed");

            assertThat(seen.at("/broken/raised").asBoolean()).as(output).isTrue();
            assertThat(seen.at("/broken/seen").asText()).isEqualTo("Hello from");
        }
    }

    private static String run(List<String> command, TestServer server, int seconds)
            throws IOException, InterruptedException {
        ProcessBuilder builder =
                new ProcessBuilder(command).directory(NODE_DIR.toFile()).redirectErrorStream(true);
        if (server != null) {
            builder.environment().put("IDEM_BASE_URL", server.node().baseUrl());
            builder.environment().put("IDEM_API_KEY", TestServer.ADMIN_KEY);
        }
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(command + " did not finish within " + seconds + " s");
        }
        String text = new String(output, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new AssertionError(command + " failed (exit " + process.exitValue() + "):\n" + text);
        }
        return text;
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        return path != null
                && java.util.Arrays.stream(path.split(java.io.File.pathSeparator))
                        .anyMatch(dir -> Files.isExecutable(Path.of(dir, program)));
    }
}
