package io.idem.server.cli;

import io.idem.server.IdemServer;
import io.idem.server.config.ConfigLoader;
import io.idem.server.config.IdemConfig;
import io.idem.server.http.Json;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code idem train}: runs a throwaway demo node (embedded database in a temporary directory, fake
 * providers, nothing of the caller's configuration) under the traffic a gateway sees, then stops.
 * With {@code IDEM_AOT=on}, {@code ./idem} runs it once per build with {@code -XX:AOTCacheOutput},
 * so the JVM's ahead-of-time cache holds the classes and method profiles of these paths (the
 * demo's: docs/configuration.md says when that helps and when it does not).
 */
@Command(
        name = "train",
        description =
                "Exercise a throwaway demo node (for the JVM's ahead-of-time cache; ./idem runs it once per build).")
final class TrainCommand implements Callable<Integer> {
    @Option(
            names = "--seconds",
            description = "How long the traffic runs (default: ${DEFAULT-VALUE}).",
            defaultValue = "20")
    int seconds;

    @Option(names = "--clients", description = "Concurrent callers (default: ${DEFAULT-VALUE}).", defaultValue = "8")
    int clients;

    /** What each kind of request the callers made got back, by status. */
    private final Map<String, LongAdder> answers = new ConcurrentHashMap<>();

    @Override
    public Integer call() throws Exception {
        if (seconds < 1 || seconds > 600 || clients < 1 || clients > 64) {
            System.err.println(
                    "idem train: --seconds must be 1..600 and --clients 1..64, were " + seconds + " and " + clients);
            return 2;
        }
        Path dataDir = Files.createTempDirectory("idem-train-");
        String adminKey = "idem_train_" + UUID.randomUUID().toString().replace("-", "");
        try {
            IdemConfig config = new ConfigLoader(environment(dataDir, adminKey)).load(Optional.empty());
            try (IdemServer server = IdemServer.start(config, new PrintStream(PrintStream.nullOutputStream()))) {
                drive(URI.create(server.baseUrl()), adminKey);
            }
        } finally {
            deleteTree(dataDir);
        }
        List<String> lines = new ArrayList<>();
        answers.forEach((what, count) -> lines.add(what + " " + count.sum()));
        lines.sort(Comparator.naturalOrder());
        System.out.println("idem train: " + String.join(", ", lines));
        boolean allExpected = answers.keySet().stream().allMatch(k -> k.endsWith(" 200") || k.endsWith(" 202"));
        return allExpected && !answers.isEmpty() ? 0 : 1;
    }

    /** The demo defaults only: no file, no database URL, no providers or keys of the caller's. */
    private static Map<String, String> environment(Path dataDir, String adminKey) {
        Map<String, String> env = new HashMap<>();
        env.put("IDEM_HOST", "127.0.0.1");
        env.put("IDEM_PORT", "0");
        env.put("IDEM_ROLE", "all");
        env.put("IDEM_DATA_DIR", dataDir.toString());
        env.put("IDEM_BOOTSTRAP_KEY", adminKey);
        env.put("IDEM_SECRET", UUID.randomUUID() + "-" + UUID.randomUUID());
        // the fallback traffic makes fake-chat-a fail on purpose: its breaker must stay closed
        env.put("IDEM_BREAKER_FAILURE_THRESHOLD", "1000000");
        return env;
    }

    private void drive(URI base, String adminKey) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        List<Thread> callers = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            callers.add(Thread.ofVirtual().name("idem-train-" + i).start(() -> {
                while (System.nanoTime() < end) {
                    round(http, base, adminKey);
                }
            }));
        }
        for (Thread caller : callers) {
            caller.join();
        }
    }

    /** One of each: a job accepted and read back, a chat call, a streamed one and one that fails over. */
    private void round(HttpClient http, URI base, String adminKey) {
        String job = "{\"prompt\":\"a lighthouse over a cloud ocean " + UUID.randomUUID() + "\"}";
        HttpResponse<String> accepted = call(http, base, adminKey, "accept", "/v1/jobs", job);
        if (accepted != null && accepted.statusCode() == 202) {
            try {
                String id = Json.MAPPER.readTree(accepted.body()).path("id").asText();
                call(http, base, adminKey, "read", "/v1/jobs/" + id, null);
            } catch (IOException e) {
                answers.computeIfAbsent("accept unreadable", k -> new LongAdder())
                        .increment();
            }
        }
        String messages = "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello.\"}],\"max_tokens\":16";
        call(http, base, adminKey, "chat", "/v1/chat/completions", "{\"model\":\"fake-chat-a\"," + messages + "}");
        call(
                http,
                base,
                adminKey,
                "stream",
                "/v1/chat/completions",
                "{\"model\":\"fake-chat-a\",\"stream\":true," + messages + "}");
        call(
                http,
                base,
                adminKey,
                "fallback",
                "/v1/chat/completions",
                "{\"model\":\"fake-chat-a\",\"fallback_models\":[\"fake-chat-b\"],"
                        + "\"simulate\":{\"fake-chat-a\":\"http_503\"}," + messages + "}");
    }

    private HttpResponse<String> call(HttpClient http, URI base, String key, String what, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + key);
        if (body == null) {
            request.GET();
        } else {
            request.header("Content-Type", "application/json")
                    .header("Idempotency-Key", UUID.randomUUID().toString())
                    .POST(HttpRequest.BodyPublishers.ofString(body));
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            answers.computeIfAbsent(what + " " + response.statusCode(), k -> new LongAdder())
                    .increment();
            return response;
        } catch (IOException e) {
            answers.computeIfAbsent(what + " failed", k -> new LongAdder()).increment();
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            System.err.println("idem train: could not remove " + dir + ": " + e.getMessage());
        }
    }
}
