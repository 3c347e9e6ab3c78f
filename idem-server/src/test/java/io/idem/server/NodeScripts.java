package io.idem.server;

import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.http.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the scripts in {@code src/test/node} with the official {@code openai} npm client, unmodified
 * ({@code npm ci} when it is not installed yet). A test using it is skipped only when there is no
 * {@code node} on the PATH.
 */
public final class NodeScripts {
    private static final Path NODE_DIR = Path.of("src/test/node");

    private NodeScripts() {}

    /** Skips the calling test without {@code node}; installs the client when it is missing. */
    public static void assumeInstalled() throws IOException, InterruptedException {
        assumeThat(onPath("node"))
                .as("node is not installed: the openai npm client check is skipped")
                .isTrue();
        if (!Files.isDirectory(NODE_DIR.resolve("node_modules/openai"))) {
            run(List.of("npm", "ci", "--no-audit", "--no-fund"), Map.of(), 300);
        }
    }

    /** Runs {@code script} against {@code server} with {@code env} added; the JSON of its last line. */
    public static JsonNode run(String script, TestServer server, Map<String, String> env, int seconds)
            throws IOException, InterruptedException {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("IDEM_BASE_URL", server.node().baseUrl());
        all.putIfAbsent("IDEM_API_KEY", TestServer.ADMIN_KEY);
        String output = run(List.of("node", script), all, seconds);
        return Json.MAPPER.readTree(output.lines().reduce((a, b) -> b).orElseThrow());
    }

    private static String run(List<String> command, Map<String, String> env, int seconds)
            throws IOException, InterruptedException {
        ProcessBuilder builder =
                new ProcessBuilder(command).directory(NODE_DIR.toFile()).redirectErrorStream(true);
        builder.environment().putAll(env);
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
