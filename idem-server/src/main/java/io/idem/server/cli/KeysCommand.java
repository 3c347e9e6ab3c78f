package io.idem.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code idem keys create|list|revoke}: manage API keys on a running server with an admin key. */
@Command(
        name = "keys",
        description = "Manage API keys on a running Idem server.",
        subcommands = {KeysCommand.Create.class, KeysCommand.ListKeys.class, KeysCommand.Revoke.class})
final class KeysCommand extends CommandGroup {

    @Command(name = "create", description = "Create a key; its secret is printed once.")
    static final class Create implements Callable<Integer> {
        @picocli.CommandLine.Mixin
        ServerConnection server = new ServerConnection();

        @Option(names = "--owner", required = true)
        String owner;

        @Option(names = "--role", defaultValue = "client", description = "client, operator or admin")
        String role;

        @Override
        public Integer call() throws Exception {
            JsonNode key = server.call("POST", "/v1/admin/keys", Map.of("owner", owner, "role", role));
            ServerConnection.print(key);
            return 0;
        }
    }

    @Command(name = "list", description = "List keys (never their secrets).")
    static final class ListKeys implements Callable<Integer> {
        @picocli.CommandLine.Mixin
        ServerConnection server = new ServerConnection();

        @Override
        public Integer call() throws Exception {
            JsonNode keys = server.call("GET", "/v1/admin/keys", null);
            ServerConnection.print(keys);
            return 0;
        }
    }

    @Command(name = "revoke", description = "Revoke a key by id.")
    static final class Revoke implements Callable<Integer> {
        @picocli.CommandLine.Mixin
        ServerConnection server = new ServerConnection();

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
