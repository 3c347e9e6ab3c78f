package io.idem.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code idem webhooks list|create|delete|deliveries}: event subscriptions on a running server. */
@Command(
        name = "webhooks",
        description = "Manage webhook subscriptions on a running Idem server.",
        subcommands = {
            WebhooksCommand.ListHooks.class,
            WebhooksCommand.Create.class,
            WebhooksCommand.Delete.class,
            WebhooksCommand.Deliveries.class
        })
final class WebhooksCommand extends CommandGroup {

    @Command(name = "list", description = "Subscriptions (never their secrets).")
    static final class ListHooks implements Callable<Integer> {
        @Mixin
        ServerConnection server = new ServerConnection();

        @Override
        public Integer call() throws Exception {
            ServerConnection.print(server.call("GET", "/v1/webhooks", null));
            return 0;
        }
    }

    @Command(name = "create", description = "Subscribe a URL; the signing secret is printed once.")
    static final class Create implements Callable<Integer> {
        @Mixin
        ServerConnection server = new ServerConnection();

        @Option(names = "--url", required = true, description = "Where the events are POSTed (https).")
        String url;

        @Option(
                names = "--events",
                split = ",",
                defaultValue = "*",
                description = "Event types, comma-separated (default: every type).")
        List<String> events;

        @Override
        public Integer call() throws Exception {
            ServerConnection.print(server.call("POST", "/v1/webhooks", Map.of("url", url, "event_types", events)));
            return 0;
        }
    }

    @Command(name = "delete", description = "Delete a subscription by id.")
    static final class Delete implements Callable<Integer> {
        @Mixin
        ServerConnection server = new ServerConnection();

        @Parameters(index = "0", paramLabel = "SUBSCRIPTION_ID")
        String id;

        @Override
        public Integer call() throws Exception {
            server.call("DELETE", "/v1/webhooks/" + ServerConnection.segment(id), null);
            System.out.println("deleted " + id);
            return 0;
        }
    }

    @Command(name = "deliveries", description = "A subscription's delivery log, newest first.")
    static final class Deliveries implements Callable<Integer> {
        @Mixin
        ServerConnection server = new ServerConnection();

        @Parameters(index = "0", paramLabel = "SUBSCRIPTION_ID")
        String id;

        @Override
        public Integer call() throws Exception {
            JsonNode log = server.call("GET", "/v1/webhooks/" + ServerConnection.segment(id) + "/deliveries", null);
            ServerConnection.print(log);
            return 0;
        }
    }
}
