package io.idem.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.postgres.TestDatabases;
import io.idem.server.config.ConfigLoader;
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
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** A real Idem node for tests: fresh database, in-process fake vendors, a known admin key. */
public final class TestServer implements AutoCloseable {
    public static final String ADMIN_KEY = "idem_test_admin_key_0123456789";

    private final IdemServer server;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final Path dataDir;

    private TestServer(IdemServer server, Path dataDir) {
        this.server = server;
        this.dataDir = dataDir;
    }

    public static TestServer start() {
        return start(Map.of());
    }

    /** Starts with extra environment settings over the test defaults. */
    public static TestServer start(Map<String, String> env) {
        return start(env, null);
    }

    /** Starts with extra environment settings and an {@code idem.yaml} ({@code null}: none). */
    public static TestServer start(Map<String, String> env, String yaml) {
        try {
            Path dataDir = Files.createTempDirectory("idem-test");
            Map<String, String> all = new HashMap<>();
            all.put("IDEM_PORT", "0");
            all.put("IDEM_DATA_DIR", dataDir.toString());
            all.put("IDEM_DATABASE_URL", TestDatabases.freshUrl());
            all.put("IDEM_BOOTSTRAP_KEY", ADMIN_KEY);
            all.put("IDEM_SECRET", "test-secret-0123456789abcdef");
            all.put("OPENAI_WAIT_SECONDS", "5");
            // Tests inject faults on purpose; only the breaker tests want them to open breakers.
            all.put("IDEM_BREAKER_FAILURE_THRESHOLD", "1000000");
            all.putAll(env);
            Optional<Path> file = Optional.empty();
            if (yaml != null) {
                file = Optional.of(Files.writeString(dataDir.resolve("idem.yaml"), yaml));
            }
            var config = new ConfigLoader(all).load(file);
            return new TestServer(IdemServer.start(config, new PrintStream(PrintStream.nullOutputStream())), dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public IdemServer node() {
        return server;
    }

    /** One HTTP exchange's status, headers and parsed body. */
    public record Reply(int status, Map<String, java.util.List<String>> headers, JsonNode body, String raw) {
        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst())
                    .findFirst()
                    .orElse(null);
        }
    }

    public Reply send(String method, String path, String key, String body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                .timeout(Duration.ofSeconds(30))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        headers.forEach(request::header);
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode json = null;
            if (!response.body().isEmpty()
                    && response.headers().firstValue("Content-Type").orElse("").contains("json")) {
                json = Json.MAPPER.readTree(response.body());
            }
            return new Reply(response.statusCode(), response.headers().map(), json, response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public Reply post(String path, String key, String body) {
        return send("POST", path, key, body, Map.of());
    }

    public Reply get(String path, String key) {
        return send("GET", path, key, null, Map.of());
    }

    /** Creates a key with this role and returns its secret. */
    public String newKey(String owner, String role) {
        Reply reply = post("/v1/admin/keys", ADMIN_KEY, "{\"owner\":\"" + owner + "\",\"role\":\"" + role + "\"}");
        if (reply.status() != 201) {
            throw new IllegalStateException("could not create a key: " + reply.raw());
        }
        return reply.body().get("key").asText();
    }

    /** Waits until every chat attempt so far is committed to the audit. */
    public void awaitChatAudit() {
        try {
            if (!server.chat().audit().awaitWritten(Duration.ofSeconds(10))) {
                throw new IllegalStateException("the chat audit did not commit in time");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits until one of this node's in-process fake vendors is working on a generation: only then
     * can a cancel stop it (before, the vendor cannot say the call stopped, and the job parks).
     */
    public void awaitAtVendor() {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> runningAtVendors() > 0);
    }

    /** How many generations this node's in-process fake vendors are working on now. */
    public long runningAtVendors() {
        return server.fakes().values().stream()
                .mapToLong(io.idem.providers.fake.FakeVendorServer::running)
                .sum();
    }

    /** Waits until this node's own reconcile sweep has run {@code times} more times. */
    public void awaitSweeps(int times) {
        long until = server.reconciler().sweeps() + times;
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> server.reconciler().sweeps() >= until);
    }

    @Override
    public void close() {
        server.close();
    }
}
