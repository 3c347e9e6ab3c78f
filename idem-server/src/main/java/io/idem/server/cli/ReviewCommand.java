package io.idem.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code idem review list|reconcile|resolve}: work the review queue of a running server. */
@Command(
        name = "review",
        description = "Work the manual-review queue (needs an operator or admin key).",
        subcommands = {ReviewCommand.ListQueue.class, ReviewCommand.Reconcile.class, ReviewCommand.Resolve.class})
final class ReviewCommand extends CommandGroup {

    @Command(name = "list", description = "Parked jobs, oldest first: reason, age, attempts.")
    static final class ListQueue implements Callable<Integer> {
        @Mixin
        ServerConnection server = new ServerConnection();

        @Override
        public Integer call() throws Exception {
            JsonNode queue = server.call("GET", "/v1/review-queue", null).get("data");
            if (queue.isEmpty()) {
                System.out.println("the review queue is empty");
                return 0;
            }
            System.out.printf("%-36s  %-20s  %8s  %s%n", "JOB", "REASON", "AGE", "ATTEMPTS");
            for (JsonNode item : queue) {
                StringBuilder attempts = new StringBuilder();
                item.get("attempts")
                        .forEach(a -> attempts.append(a.get("provider").asText())
                                .append('=')
                                .append(a.get("status").asText())
                                .append("/billable:")
                                .append(a.get("billable").asText())
                                .append(' '));
                System.out.printf(
                        "%-36s  %-20s  %7ds  %s%n",
                        item.get("id").asText(),
                        item.get("reason").asText(),
                        item.get("age_seconds").asLong(),
                        attempts.toString().trim());
            }
            return 0;
        }
    }

    @Command(name = "reconcile", description = "Re-check a parked job with its provider now.")
    static final class Reconcile implements Callable<Integer> {
        @Mixin
        ServerConnection server = new ServerConnection();

        @Parameters(index = "0", paramLabel = "JOB_ID")
        String id;

        @Override
        public Integer call() throws Exception {
            JsonNode job = server.call("POST", "/v1/jobs/" + id + "/reconcile", null);
            System.out.println(id + ": " + job.get("reconcile").asText() + ", now "
                    + job.get("state").asText());
            return 0;
        }
    }

    @Command(name = "resolve", description = "Decide a parked job: retry, fail or confirm_result (audited).")
    static final class Resolve implements Callable<Integer> {
        @Mixin
        ServerConnection server = new ServerConnection();

        @Parameters(index = "0", paramLabel = "JOB_ID")
        String id;

        @Option(names = "--action", required = true, description = "retry, fail or confirm_result")
        String action;

        @Option(names = "--note", required = true, description = "why (kept in the job's audit trail)")
        String note;

        @Override
        public Integer call() throws Exception {
            JsonNode job = server.call("POST", "/v1/jobs/" + id + "/resolve", Map.of("action", action, "note", note));
            System.out.println(id + ": now " + job.get("state").asText());
            return 0;
        }
    }
}
