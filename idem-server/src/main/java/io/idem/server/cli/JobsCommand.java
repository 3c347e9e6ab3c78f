package io.idem.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code idem jobs list|show|cancel}: a running server's jobs, as the key may see them. */
@Command(
        name = "jobs",
        description = "List, show and cancel jobs on a running Idem server.",
        subcommands = {JobsCommand.ListJobs.class, JobsCommand.Show.class, JobsCommand.Cancel.class})
final class JobsCommand extends CommandGroup {

    @Command(name = "list", description = "The newest jobs: id, state, lane, provider that served, age.")
    static final class ListJobs implements Callable<Integer> {
        @Mixin
        ServerConnection server = new ServerConnection();

        @Option(names = "--state", description = "Only jobs in this state (queued, running, succeeded, …).")
        String state;

        @Option(names = "--limit", defaultValue = "20", description = "At most this many (1..200, default 20).")
        int limit;

        @Override
        public Integer call() throws Exception {
            String query = "?limit=" + limit
                    + (state == null ? "" : "&state=" + URLEncoder.encode(state, StandardCharsets.UTF_8));
            JsonNode jobs = server.call("GET", "/v1/jobs" + query, null).get("data");
            if (jobs.isEmpty()) {
                System.out.println("no jobs");
                return 0;
            }
            System.out.printf("%-36s  %-13s  %-10s  %s%n", "JOB", "STATE", "LANE", "CREATED");
            for (JsonNode job : jobs) {
                System.out.printf(
                        "%-36s  %-13s  %-10s  %s%n",
                        job.path("id").asText(),
                        job.path("state").asText(),
                        job.path("lane").asText("-"),
                        job.path("created_at").asText("-"));
            }
            return 0;
        }
    }

    @Command(name = "show", description = "One job with its attempts, as JSON.")
    static final class Show implements Callable<Integer> {
        @Mixin
        ServerConnection server = new ServerConnection();

        @Parameters(index = "0", paramLabel = "JOB_ID")
        String id;

        @Override
        public Integer call() throws Exception {
            ServerConnection.print(server.call("GET", "/v1/jobs/" + ServerConnection.segment(id), null));
            return 0;
        }
    }

    @Command(name = "cancel", description = "Cancel a job (the vendor is asked to stop a call in flight).")
    static final class Cancel implements Callable<Integer> {
        @Mixin
        ServerConnection server = new ServerConnection();

        @Parameters(index = "0", paramLabel = "JOB_ID")
        String id;

        @Override
        public Integer call() throws Exception {
            JsonNode job = server.call("POST", "/v1/jobs/" + ServerConnection.segment(id) + "/cancel", null);
            System.out.println(id + " is now " + job.path("state").asText());
            return 0;
        }
    }
}
