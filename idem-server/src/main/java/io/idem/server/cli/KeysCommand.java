package io.idem.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.server.api.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code idem keys create|list|revoke}: manage API keys on a running server with an admin key. */
@Command(
        name = "keys",
        description = "Manage API keys on a running Idem server.",
        subcommands = {KeysCommand.Create.class, KeysCommand.ListKeys.class, KeysCommand.Revoke.class})
final class KeysCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    /** Connection options shared by the key commands. */
    static class Server {
        @Option(
                names = "--server",
                defaultValue = "${env:IDEM_URL:-http://127.0.0.1:8080}",
                description = "Idem base URL (default: $IDEM_URL or http://127.0.0.1:8080).")
        String url;

        @Option(
                names = "--api-key",
                defaultValue = "${env:IDEM_API_KEY}",
                description = "An admin key (default: $IDEM_API_KEY).")
        String apiKey;

        JsonNode call(String method, String path, Object body) throws Exception {
            if (apiKey == null || apiKey.isBlank()) {
                throw new IllegalArgumentException("an admin key is needed: set IDEM_API_KEY or pass --api-key");
            }
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + path))
                    .header("Authorization", "Bearer " + apiKey)
                    .header("Content-Type", "application/json");
            request.method(
                    method,
                    body == null
                            ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(Json.MAPPER.writeValueAsBytes(body)));
            HttpResponse<String> response;
            try (HttpClient client = HttpClient.newHttpClient()) {
                response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            }
            if (response.statusCode() >= 400) {
                throw new IllegalStateException("server answered " + response.statusCode() + ": " + response.body());
            }
            return response.body().isEmpty() ? null : Json.MAPPER.readTree(response.body());
        }
    }

    @Command(name = "create", description = "Create a key; its secret is printed once.")
    static final class Create implements Callable<Integer> {
        @picocli.CommandLine.Mixin
        Server server = new Server();

        @Option(names = "--owner", required = true)
        String owner;

        @Option(names = "--role", defaultValue = "client", description = "client, operator or admin")
        String role;

        @Override
        public Integer call() throws Exception {
            JsonNode key = server.call("POST", "/v1/admin/keys", Map.of("owner", owner, "role", role));
            System.out.println(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(key));
            return 0;
        }
    }

    @Command(name = "list", description = "List keys (never their secrets).")
    static final class ListKeys implements Callable<Integer> {
        @picocli.CommandLine.Mixin
        Server server = new Server();

        @Override
        public Integer call() throws Exception {
            JsonNode keys = server.call("GET", "/v1/admin/keys", null);
            System.out.println(Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(keys));
            return 0;
        }
    }

    @Command(name = "revoke", description = "Revoke a key by id.")
    static final class Revoke implements Callable<Integer> {
        @picocli.CommandLine.Mixin
        Server server = new Server();

        @picocli.CommandLine.Parameters(index = "0")
        String id;

        @Override
        public Integer call() throws Exception {
            server.call("DELETE", "/v1/admin/keys/" + id, null);
            System.out.println("revoked " + id);
            return 0;
        }
    }
}
