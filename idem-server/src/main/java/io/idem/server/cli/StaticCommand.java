package io.idem.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.idem.providers.chat.StaticVendor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code idem static build}: compile the static tier's answers file from real traffic. */
@Command(
        name = StaticVendor.NAME, // the command is named after the tier's vendor
        description = "The static last-resort tier.",
        subcommands = {StaticCommand.Build.class})
final class StaticCommand extends CommandGroup {
    @Command(
            name = "build",
            description = "Write an answers file from the most asked single-turn prompts of the last days and the"
                    + " answers live models served for them (needs chat.answer_retention_days on the server),"
                    + " and report the share of those days' calls it would have answered.")
    static final class Build implements Callable<Integer> {
        private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

        @Mixin
        ServerConnection server = new ServerConnection();

        @Option(names = "--top", defaultValue = "50", description = "How many prompts (1..1000, default 50).")
        int top;

        @Option(names = "--days", defaultValue = "7", description = "Over how many days (1..365, default 7).")
        int days;

        @Option(
                names = "--out",
                defaultValue = "answers.yaml",
                description = "The file to write (default answers.yaml).")
        Path out;

        @Override
        public Integer call() throws Exception {
            JsonNode built = server.call("GET", "/v1/admin/static-tier?top=" + top + "&days=" + days, null);
            if (built.path("retention_days").asLong() == 0) {
                System.err.println(
                        "idem: the server keeps no answers (chat.answer_retention_days is 0); nothing to build");
                return 1;
            }
            Map<String, String> answers = new LinkedHashMap<>();
            built.path("answers")
                    .forEach(a -> answers.putIfAbsent(
                            a.path("prompt").asText(), a.path("answer").asText()));
            Files.writeString(out, YAML.writeValueAsString(Map.of("answers", answers)));
            JsonNode coverage = built.path("coverage");
            long calls = coverage.path("calls").asLong();
            System.out.printf(
                    "%d answers written to %s. From %s to %s they would have answered %d of %d kept single-turn"
                            + " calls (%s).%n",
                    answers.size(),
                    out,
                    built.path("from").asText(),
                    built.path("to").asText(),
                    coverage.path("covered").asLong(),
                    calls,
                    calls == 0
                            ? "no calls"
                            : String.format("%.1f %%", coverage.path("ratio").asDouble() * 100));
            return 0;
        }
    }
}
